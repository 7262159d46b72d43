"""A ruleset's TOML data table laid out as the printed charts: grids of rows x columns with their
headings, each cell the path of one value in the document (``charts_of``).

The layout is read from the document's shape:

* a mapping of rows, each a mapping or a list of values (``cells."40"."5"``, a pilot-quality
  table, ``results."3"[4]``), is one grid; its outer keys are the columns when the document says
  so (a ``columns`` key listing them, or the mapping is itself named ``columns``) or when the
  rows are longer than the list of them (a chart reads down the roll);
* a list of records (``[[rows]]``, ``[[bands]]``) is one grid, a row per record, a column per
  value (a list spread over one column per entry, an inline table over one per key);
* the plain values of a section (modifiers, a launch number) are one grid of one column, a list
  spread over columns;
* ``title``, ``rule`` and ``note`` head the chart, they are not cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Path = tuple[str | int, ...]
META = ("title", "rule", "note")


@dataclass
class Chart:
    """One printed grid: its name, headings and, per (row, column), the path of its value."""

    title: str
    rule: str = ""
    rows: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    cells: dict[tuple[int, int], Path] = field(default_factory=dict)

    def position(self, path: Path) -> tuple[int, int] | None:
        for rc, p in self.cells.items():
            if p == path:
                return rc
        return None


def _scalar(v: Any) -> bool:
    return not isinstance(v, Mapping | list)


def _scalars(v: Any) -> bool:
    """A value or a list of values (one cell or a row of cells)."""
    return _scalar(v) or (isinstance(v, list) and all(_scalar(x) for x in v))


def heading(key: str | int) -> str:
    """A key as a heading: ``ssgt_per_third`` -> "Ssgt per third", an index -> its number."""
    if isinstance(key, int):
        return str(key + 1)
    text = str(key).replace("_", " ")
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def _title(path: Path, node: Mapping[str, Any], doc: Mapping[str, Any]) -> str:
    own = node.get("title")
    if isinstance(own, str):
        return own
    if not path:
        return str(doc.get("title", "")) or "Values"
    return _name(path[:-1], str(path[-1]), doc)


def charts_of(
    doc: Mapping[str, Any], headings: Mapping[str, Sequence[str]] | None = None
) -> list[Chart]:
    """The charts of a TOML document, in the document's order; ``headings`` name the positions
    of lists (``Ruleset.table_headings``)."""
    out: list[Chart] = []
    declared = {str(c) for c in doc.get("columns", []) or [] if _scalar(c)}
    _walk(doc, (), doc, declared, out)
    for chart in out:
        _head(chart, headings or {})
    for c in out:
        c.title = _titled(c.title, doc)
    return [c for c in out if c.cells]


def _walk(
    node: Mapping[str, Any],
    path: Path,
    doc: Mapping[str, Any],
    declared: set[str],
    out: list[Chart],
) -> None:
    rule = str(node.get("rule", ""))
    plain = {k: v for k, v in node.items() if k not in META and _scalars(v)}
    # sibling rows of values (a matrix): mappings of plain values, or lists of values
    rows = {
        k: v
        for k, v in node.items()
        if k not in META
        and isinstance(v, Mapping)
        and v
        and all(_scalar(x) for x in v.values())
        and not set(v) & set(META)  # a section of its own (it has its rule): walked below
    }
    if plain and len(plain) == len([k for k in node if k not in META]) and _is_matrix(plain):
        out.append(_matrix(_title(path, node, doc), rule, path, plain, declared, path))
        return
    if plain:
        out.append(_list_grid(_title(path, node, doc), rule, path, plain))
    if rows:
        if len(rows) > 1 and _shared(rows):
            out.append(_matrix(_title(path, node, doc), rule, path, rows, declared, path))
        else:
            for k, v in rows.items():
                own = node.get("title") if len(rows) == 1 and not plain else None
                name = own if isinstance(own, str) else _title((*path, k), v, doc)
                out.append(_list_grid(name, rule, (*path, k), v))
    for k, v in node.items():
        if k in META or k in plain or k in rows:
            continue
        if isinstance(v, Mapping):
            _walk(v, (*path, k), doc, declared, out)
        elif isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v):
            out.append(_records(_name(path, k, doc), rule, (*path, k), v))


def _head(chart: Chart, headings: Mapping[str, Sequence[str]]) -> None:
    """Replace the numbered headings of list positions by the printed ones."""
    if not headings:
        return
    rows: dict[int, str] = {}
    cols: dict[int, str] = {}
    for (r, c), path in chart.cells.items():
        i = len(path) - 1
        position = path[i]
        if not isinstance(position, int):
            continue
        # the list's own path: the keys before the position, record indexes left out
        keys = [str(p) for p in path[:i] if isinstance(p, str)]
        found = (headings.get(".".join(keys[:n])) for n in range(len(keys), 0, -1))
        names = next((h for h in found if h is not None), None)
        if names is None or position >= len(names):
            continue
        # the heading that counts the position: the one the list runs along
        if chart.columns[c] in (str(position + 1), f"{heading(keys[-1])} {position + 1}"):
            cols[c] = names[position]
        elif chart.rows[r] == str(position + 1):
            rows[r] = names[position]
    for c, text in cols.items():
        chart.columns[c] = text
    for r, text in rows.items():
        chart.rows[r] = text


def _name(path: Path, key: str, doc: Mapping[str, Any]) -> str:
    parts = [heading(p) for p in (*path, key) if isinstance(p, str)]
    if len(parts) > 1 and parts[-1] in GENERIC:  # "Gun - Cells" is the Gun chart
        parts = parts[:-1]
    return " - ".join(parts) or str(doc.get("title", "Values"))


GENERIC = ("Cells", "Rows", "Values", "Results", "Columns")


def _titled(title: str, doc: Mapping[str, Any]) -> str:
    """A chart named only "Cells" or "Rows" takes the document's title ("Attack table")."""
    own = str(doc.get("title", ""))
    return f"{own}: {title}" if own and title in GENERIC else title


def _is_matrix(plain: Mapping[str, Any]) -> bool:
    """Rows that are lists of one length (``results."3" = [...]``): one grid, not a list."""
    lengths = {len(v) for v in plain.values() if isinstance(v, list)}
    return len(plain) > 1 and all(isinstance(v, list) for v in plain.values()) and len(lengths) == 1


def _shared(rows: Mapping[str, Mapping[str, Any]]) -> bool:
    """Sibling mappings that read as one chart: every one's keys among the widest one's."""
    widest = max((set(v) for v in rows.values()), key=len)
    return all(set(v) <= widest for v in rows.values())


def _matrix(
    title: str,
    rule: str,
    path: Path,
    rows: Mapping[str, Any],
    declared: set[str],
    where: Path,
) -> Chart:
    outer = list(rows)
    inner: list[str | int] = []
    for v in rows.values():
        keys = list(v) if isinstance(v, Mapping) else list(range(len(v)))
        inner += [k for k in keys if k not in inner]
    named_columns = bool(where and where[-1] == "columns") or bool(
        declared and set(outer) & declared
    )
    transpose = named_columns or len(inner) > len(outer) * 2
    chart = Chart(title, rule)
    if transpose:
        chart.rows = [heading(k) for k in inner]
        chart.columns = [heading(k) for k in outer]
    else:
        chart.rows = [heading(k) for k in outer]
        chart.columns = [heading(k) for k in inner]
    for i, k in enumerate(outer):
        v = rows[k]
        keys = list(v) if isinstance(v, Mapping) else list(range(len(v)))
        for key in keys:
            j = inner.index(key)
            chart.cells[(j, i) if transpose else (i, j)] = (*path, k, key)
    return chart


def _list_grid(title: str, rule: str, path: Path, plain: Mapping[str, Any]) -> Chart:
    """Plain values: a row each, one Value column (a list over one column per entry)."""
    width = max((len(v) for v in plain.values() if isinstance(v, list)), default=1)
    chart = Chart(title, rule)
    chart.rows = [heading(k) for k in plain]
    chart.columns = ["Value"] if width == 1 else [str(i + 1) for i in range(width)]
    for r, (k, v) in enumerate(plain.items()):
        if isinstance(v, list):
            for c in range(len(v)):
                chart.cells[(r, c)] = (*path, k, c)
        else:
            chart.cells[(r, 0)] = (*path, k)
    return chart


def _leaves(record: Mapping[str, Any], prefix: Path = ()) -> list[Path]:
    out: list[Path] = []
    for k, v in record.items():
        if isinstance(v, Mapping):
            out += _leaves(v, (*prefix, k))
        elif isinstance(v, list):
            out += [(*prefix, k, i) for i in range(len(v))]
        else:
            out.append((*prefix, k))
    return out


def _records(title: str, rule: str, path: Path, items: Sequence[Mapping[str, Any]]) -> Chart:
    """A list of records: a row per record, a column per leaf (union over the records)."""
    columns: list[Path] = []
    for item in items:
        columns += [p for p in _leaves(item) if p not in columns]
    chart = Chart(title, rule)
    chart.rows = [str(i + 1) for i in range(len(items))]
    chart.columns = [" ".join(heading(p) for p in c) for c in columns]
    for r, item in enumerate(items):
        have = set(_leaves(item))
        for c, leaf in enumerate(columns):
            if leaf in have:
                chart.cells[(r, c)] = (*path, r, *leaf)
    return chart


__all__ = ["Chart", "charts_of", "heading"]
