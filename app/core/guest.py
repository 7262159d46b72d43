"""A ruleset is a guest (issue 31): a call into a ruleset's own code, guarded.

``call_guest(ruleset, "odds", proc.odds, inputs, time_limit=5, returns=odds_table)`` runs the
call and gives back its result, or raises ``GuestError`` (a ``RuleViolation``, so every caller
that shows refusals already shows it) whose message names the ruleset, the call and what went
wrong: an exception (``SystemExit`` and ``KeyboardInterrupt`` from the plugin included), no
answer within the time limit (``GuestTimeout``: the call runs in a worker thread and is
abandoned, the caller is not), or a result of the wrong type (refused here, before Qt or the
store sees it). The contract's own refusals, ``RuleViolation`` and ``pydantic.ValidationError``,
pass through unchanged: they are the ruleset saying no, not the ruleset failing.

Pure Python: no Qt. A call abandoned after its time limit keeps its daemon thread until it
returns (Python cannot stop a thread); it can no longer reach the caller, which has moved on.
While it has not returned, the same call of the same ruleset is refused at once with the same
"did not answer" message, so a ruleset that hangs costs the desk its time limit once, not on
every redraw.

A caller that must not wait (the desk's GUI thread, issue 44: no nested event loop) says so
with ``answer_later(after)``: its guarded calls are waited for at most ``after`` seconds, and a
call still thinking then raises ``GuestPending`` (not an ``Exception``: nothing that catches
errors swallows it) and goes on in its worker. The caller goes back to its own work and does
its action again when the call has answered, inside ``replaying(record)``: the calls the first
run made are not made again but answered from the record, so the action goes
through as if the ruleset had answered at once. ``Call.give_up`` ends a pending call as its time
limit would (or the umpire, stopping the wait): the action done again then meets its
``GuestTimeout``. The desk's side of it is ``app.ui.shell.guest_worker``.
"""

from __future__ import annotations

import _thread
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from math import gcd
from typing import Any, TypeVar

from pydantic import ValidationError

from app.core.errors import RuleViolation

T = TypeVar("T")

#: the documented time limit, in seconds, for ruleset calls that may be slow (odds, decide,
#: steps, acting) when the caller asks for one
TIME_LIMIT = 5.0

#: what a ruleset may raise to refuse an action: passed through as it is
REFUSALS: tuple[type[BaseException], ...] = (RuleViolation, ValidationError)


#: told of every ruleset failure, from whatever thread met it (issue 46: the desk says each
#: in its message bar, naming the ruleset, the call and what happened): ``watcher(error)``
watchers: list[Callable[[GuestError], None]] = []


def _tell(error: GuestError) -> None:
    if getattr(_inside, "ahead", False):
        return  # met by work done ahead of need (``call_guest_ahead``): said when asked
    for watcher in list(watchers):
        try:
            watcher(error)
        except Exception:  # noqa: BLE001, S110 - a watcher never turns a refusal into a crash
            pass


class GuestError(RuleViolation):
    """A ruleset's own code failed: ``ruleset``, ``call`` and ``error`` (the exception, when
    one was raised) say where and what; the message says it for the umpire. Every one made is
    told to the ``watchers``."""

    def __init__(
        self,
        ruleset: str,
        call: str,
        problem: str,
        error: BaseException | None = None,
        *,
        tell: bool = True,
    ) -> None:
        self.ruleset, self.call, self.error = ruleset, call, error
        super().__init__(f"the ruleset {ruleset} failed in {call}: {problem}; nothing was recorded")
        if tell:
            _tell(self)


class GuestTimeout(GuestError):
    """A ruleset call that did not answer within its time limit (``still``: an earlier call
    of the same that did not answer has not returned yet, so this one was not made;
    ``stopped``: the umpire stopped waiting after ``seconds``, before the time limit)."""

    def __init__(
        self, ruleset: str, call: str, seconds: float, still: bool = False, stopped: bool = False
    ) -> None:
        super().__init__(ruleset, call, f"no answer in {seconds:g} s", tell=False)
        self.seconds, self.still, self.stopped = seconds, still, stopped
        busy = ", and is still busy with it" if still else ""
        busy += ": the umpire stopped waiting" if stopped else ""
        self.args = (
            f"the ruleset {ruleset} did not answer in {seconds:g} s ({call}){busy}; "
            "nothing was recorded",
        )
        _tell(self)


#: the thread whose guarded calls are waited for only briefly (``answer_later``), and how long
_quick: tuple[threading.Thread, float] | None = None
#: calls abandoned after their time limit, by (ruleset, call): their job and the seconds waited
_hanging: dict[tuple[str, str], tuple[_Job, float]] = {}
_hanging_lock = threading.Lock()
#: the last call of each (ruleset, call) left to answer later (``answer_later``)
_thinking: dict[tuple[str, str], Call] = {}
#: ``worker`` is set in the guest workers' threads (a call made there runs there)
_inside = threading.local()


class _Done(threading.Event):
    """A ``threading.Event`` set once, by the worker, made of a flag and one bare lock (held
    until set): an ``Event``'s condition variable cost five times the hand-over to the worker
    itself, more than most guest calls (issue 44). Callers use ``wait`` and ``is_set``."""

    def __init__(self) -> None:  # noqa: PLW0231 - the Event's condition is what this replaces
        self._is_set = False
        self._held = _thread.allocate_lock()
        self._held.acquire()

    def is_set(self) -> bool:
        return self._is_set

    def set(self) -> None:
        if not self._is_set:
            self._is_set = True  # before the lock is let go: never "not set" after a wait
            self._held.release()

    def clear(self) -> None:
        raise TypeError("a guest call's end is never undone")

    def wait(self, timeout: float | None = None) -> bool:
        if self._is_set:
            return True
        if self._held.acquire(True, -1 if timeout is None else max(timeout, 0)):
            self._held.release()  # for the next waiter
        return self._is_set


class _Job:
    """One call handed to a worker thread; ``done`` is set when it returned or raised.
    ``then``: a job the same worker runs next, given this one's value, without a hand-over
    (``call_guest_then``)."""

    __slots__ = ("args", "done", "error", "fn", "kwargs", "then", "value")

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]):
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.done = _Done()
        self.value: Any = None
        self.error: BaseException | None = None
        self.then: _Job | None = None


class _Worker:
    """A daemon thread that runs guest calls one after another. Threads are kept for the next
    call (starting one costs more than most calls); one whose call hangs is simply never
    handed another."""

    _idle: list[_Worker] = []
    _lock = threading.Lock()

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        threading.Thread(target=self._run, name="airboss guest", daemon=True).start()

    @classmethod
    def run(cls, job: _Job) -> None:
        with cls._lock:
            worker = cls._idle.pop() if cls._idle else None
        (worker or cls())._jobs.put(job)

    def _run(self) -> None:
        _inside.worker = True
        while True:
            job: _Job | None = self._jobs.get()
            while job is not None:
                try:
                    job.value = job.fn(*job.args, **job.kwargs)
                except BaseException as e:  # noqa: BLE001 - handed to the caller
                    job.error = e
                job.fn = job.args = job.kwargs = None  # type: ignore[assignment]
                following, job.then = job.then, None
                if following is not None and job.error is not None:
                    following.error = _NotRun("the call it follows failed")
                    following.done.set()
                    following = None
                if following is None:
                    with self._lock:
                        self._idle.append(self)  # before ``done``: the caller's next call reuses it
                else:
                    following.args = (job.value,)
                job.done.set()
                job = following


class _NotRun(Exception):
    """What a job that follows another (``call_guest_then``) ends with when that one failed."""


class Call:
    """One guarded call made with ``answer_later``: ``ruleset`` and ``call`` name it, ``job``
    runs it, ``started`` (``time.monotonic``) and ``time_limit`` bound it; ``verdict`` is the
    error it ended with: a ``GuestTimeout`` when it was given up (``give_up``), or the
    ``GuestError`` its failure made (made once: the message bar hears of it once)."""

    __slots__ = ("asked", "call", "job", "ruleset", "started", "time_limit", "verdict")

    def __init__(self, ruleset: str, call: str, job: _Job, time_limit: float) -> None:
        self.ruleset, self.call, self.job, self.time_limit = ruleset, call, job, time_limit
        #: what was asked (the function, its arguments): an action done again takes this
        #: answer only for the same question
        self.asked = (job.fn, job.args, job.kwargs)
        self.started = time.monotonic()
        self.verdict: GuestError | None = None

    @property
    def answered(self) -> bool:
        """It returned or raised (its answer is in the record), or it was given up."""
        return self.verdict is not None or self.job.done.is_set()

    def give_up(self, stopped_after: float | None = None) -> None:
        """End it as its time limit does (``stopped_after``: the umpire stopped waiting after
        that many seconds): abandoned in its worker, and the action done again meets its
        ``GuestTimeout``."""
        if self.answered:
            return
        waited = self.time_limit if stopped_after is None else max(round(stopped_after, 1), 0.1)
        self.verdict = GuestTimeout(
            self.ruleset, self.call, waited, stopped=stopped_after is not None
        )
        with _hanging_lock:
            _hanging[(self.ruleset, self.call)] = (self.job, waited)


class GuestPending(BaseException):
    """``call`` (a ``Call``) has not answered within the caller's ``answer_later`` time: it
    goes on in its worker; the caller does its action again when ``call.answered``."""

    def __init__(self, call: Call) -> None:
        super().__init__(f"the ruleset {call.ruleset} is still working out {call.call}")
        self.call = call


class Record:
    """The guarded calls one action made, in order (``replaying``): done again, the action
    takes their answers instead of calling again. Each call takes the first answer of the
    same (ruleset, call) it has not taken yet in this run: an action done again asks the
    same questions in the same order, even where it skips one it needs no more (a cache
    answered it) or asks one more."""

    __slots__ = ("calls", "taken")

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.taken: set[int] = set()

    def take(self, ruleset: str, call: str, asked: tuple[Any, ...]) -> Call | None:
        """The recorded answer to this question not taken yet in this run, taken: the first
        one asked with the same arguments, else the first of the same call (arguments made
        afresh by the action done again: dice, a closure over them)."""
        same_call = [
            i
            for i, made in enumerate(self.calls)
            if i not in self.taken and made.ruleset == ruleset and made.call == call
        ]
        if not same_call:
            return None
        i = next((i for i in same_call if _same(self.calls[i].asked, asked)), same_call[0])
        self.taken.add(i)
        return self.calls[i]

    def add(self, made: Call) -> None:
        self.taken.add(len(self.calls))
        self.calls.append(made)


def _same(x: Any, y: Any) -> bool:
    """The same question: the same object, an equal value, the same function's code over
    the same values (a closure made afresh by an action done again)."""
    if x is y:
        return True
    if isinstance(x, tuple | list) and isinstance(y, tuple | list):
        return len(x) == len(y) and all(_same(a, b) for a, b in zip(x, y, strict=True))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    code = getattr(x, "__code__", None)
    if code is not None or getattr(y, "__code__", None) is not None:
        if code is not getattr(y, "__code__", None):
            return False
        if not _same(getattr(x, "__self__", None), getattr(y, "__self__", None)):
            return False
        cells = getattr(x, "__closure__", None) or ()
        others = getattr(y, "__closure__", None) or ()
        try:
            return len(cells) == len(others) and all(
                _same(a.cell_contents, b.cell_contents) for a, b in zip(cells, others, strict=True)
            )
        except ValueError:  # a cell not filled yet
            return False
    try:
        return bool(x == y)
    except Exception:  # noqa: BLE001 - values that cannot be compared are not the same
        return False


def answer_later(after: float | None) -> None:
    """Guarded calls made in this thread are waited for at most ``after`` s, then raise
    ``GuestPending`` (``None``: waited for up to their time limit, as in any other thread)."""
    global _quick
    _quick = None if after is None else (threading.current_thread(), after)


def current() -> Record | None:
    """The record of the action this thread is inside, done again when a call it makes is to
    be answered later (``replaying``); ``None`` outside any (or ``detached``)."""
    record: Record | None = getattr(_inside, "record", None)
    return record


@contextmanager
def detached() -> Iterator[None]:
    """Calls made within belong to no action done again (what the game's listeners do after
    an action wrote: they answer their own ``GuestPending``)."""
    outer = getattr(_inside, "record", None)
    _inside.record = None
    try:
        yield
    finally:
        _inside.record = outer


@contextmanager
def replaying(record: Record) -> Iterator[Record]:
    """Calls made within are answered from ``record`` where it has them (in order) and added
    to it otherwise; an inner ``replaying`` has a record of its own."""
    outer = getattr(_inside, "record", None)
    record.taken = set()
    _inside.record = record
    try:
        yield record
    finally:
        _inside.record = outer


def hanging() -> list[tuple[str, str]]:
    """The (ruleset, call) pairs abandoned after their time limit that have not returned."""
    with _hanging_lock:
        return [key for key, (job, _) in _hanging.items() if not job.done.is_set()]


def settle(timeout: float = 5.0) -> bool:
    """Wait up to ``timeout`` s for every abandoned call to return and forget them (tests:
    a hang released); True when none is left."""
    with _hanging_lock:
        jobs = [job for job, _ in _hanging.values()]
    for job in jobs:
        job.done.wait(timeout)
    with _hanging_lock:
        for key in [k for k, (job, _) in _hanging.items() if job.done.is_set()]:
            del _hanging[key]
        return not _hanging


def ruleset_name(ruleset: Any) -> str:
    """How a message names a ruleset: its title and id, or the text given."""
    if isinstance(ruleset, str):
        return ruleset
    title, rid = getattr(ruleset, "title", None), getattr(ruleset, "id", None)
    title = title if isinstance(title, str) else None
    rid = rid if isinstance(rid, str) else None
    if title and rid and title != rid:
        return f"{title} ({rid})"
    return title or rid or type(ruleset).__name__


def still_busy(ruleset: Any) -> bool:
    """A call of this ruleset was given up after its time limit and has not returned yet:
    what is only worth a ruleset's quick answer (the desk's rows kept as a game closes, issue
    36) is not asked of it meanwhile."""
    name = ruleset_name(ruleset)
    with _hanging_lock:
        return any(r == name and not job.done.is_set() for (r, _), (job, _) in _hanging.items())


def _brief(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:200] if text else ''}".rstrip(": ")


def call_guest(
    ruleset: Any,
    call: str,
    fn: Callable[..., T],
    /,
    *args: Any,
    time_limit: float | None = None,
    returns: type | tuple[type, ...] | Callable[[Any], Any] | None = None,
    **kwargs: Any,
) -> T:
    """``fn(*args, **kwargs)``, guarded; ``call`` names it in messages (``"odds of Gun
    attack"``). ``time_limit`` (seconds) runs it in a worker thread and gives up after that
    long. ``returns`` is a type (or tuple of types) the result must be an instance of, or a
    checker that returns the result or raises ``TypeError``/``ValueError`` saying why not
    (``odds_table``, ``sequence_of``, ``mapping_of``)."""
    name = ruleset_name(ruleset)
    if time_limit is None:
        try:
            result = fn(*args, **kwargs)
        except REFUSALS:
            raise
        except (Exception, SystemExit, KeyboardInterrupt) as e:  # the plugin's, not ours
            raise GuestError(name, call, _brief(e), e) from e
    else:
        result = _in_thread(name, call, fn, args, kwargs, time_limit)
    return _checked(name, call, result, returns)


def _in_thread(
    name: str,
    call: str,
    fn: Callable[..., T],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    time_limit: float,
) -> T:
    if getattr(_inside, "worker", False):
        # a guarded call within a guarded call: run here, the outer call's limit governs
        try:
            return fn(*args, **kwargs)
        except REFUSALS:
            raise
        except (Exception, SystemExit, KeyboardInterrupt) as e:
            raise GuestError(name, call, _brief(e), e) from e
    record: Record | None = getattr(_inside, "record", None) if _quick else None
    answer: T
    if record is not None:
        made_before = record.take(name, call, (fn, args, kwargs))
        if made_before is not None:
            answer = _answer(made_before)
            return answer
    _not_still_busy(name, call)
    job = _Job(fn, args, kwargs)
    _Worker.run(job)
    quick = _quick
    if quick is not None and quick[0] is threading.current_thread():
        made = Call(name, call, job, time_limit)
        if record is not None:
            record.add(made)
        earlier_call = _thinking.get((name, call))
        # the same call still thinking for another action: this one is not waited for either
        wait = 0.0 if earlier_call is not None and not earlier_call.answered else quick[1]
        if not job.done.wait(min(wait, time_limit)):
            _thinking[(name, call)] = made
            raise GuestPending(made)
        answer = _answer(made)
        return answer
    if not job.done.wait(time_limit):
        raise _given_up(name, call, job, time_limit)
    answer = _outcome(name, call, job)
    return answer


class Later:
    """The second call of ``call_guest_then``, going on in the worker that answered the
    first: ``result`` waits for it (up to its own time limit) and gives its answer as
    ``call_guest`` would."""

    __slots__ = ("_ask", "_job", "call", "ruleset")

    def __init__(
        self,
        ruleset: str,
        call: str,
        job: _Job | None = None,
        ask: Callable[[float | None, Any], Any] | None = None,
    ) -> None:
        self.ruleset, self.call, self._job, self._ask = ruleset, call, job, ask

    def result(
        self,
        time_limit: float | None = None,
        returns: type | tuple[type, ...] | Callable[[Any], Any] | None = None,
    ) -> Any:
        """Its answer, checked by ``returns``; ``GuestError`` when it failed, ``GuestTimeout``
        when it did not answer within ``time_limit`` (then it is abandoned, as
        ``call_guest`` abandons a call, and ``hanging`` lists it)."""
        job = self._job
        if job is None:
            assert self._ask is not None
            return self._ask(time_limit, returns)
        name, call = self.ruleset, self.call
        if not job.done.wait(time_limit):
            raise _given_up(name, call, job, time_limit or 0.0)
        return _checked(name, call, _outcome(name, call, job), returns)


def call_guest_then(
    ruleset: Any,
    call: str,
    fn: Callable[[], T],
    then_call: str,
    then: Callable[[T], Any],
    *,
    time_limit: float,
    returns: type | tuple[type, ...] | Callable[[Any], Any] | None = None,
) -> tuple[T, Later]:
    """``call_guest(ruleset, call, fn, ...)``, and ``then(its value)`` started at once in the
    same worker thread, a second guarded call named ``then_call`` whose answer ``Later``
    gives (issue 44: one hand-over to the worker for both, where the second is wanted
    whenever the first succeeds: a roll's odds stored with it). Where calls are not handed
    over as plainly (a call inside a guarded call, a thread that answers later), the second
    is an ordinary ``call_guest`` made when its answer is asked for."""
    name = ruleset_name(ruleset)
    quick = _quick
    if getattr(_inside, "worker", False) or (
        quick is not None and quick[0] is threading.current_thread()
    ):
        value = call_guest(ruleset, call, fn, time_limit=time_limit, returns=returns)

        def ask(limit: float | None, checked_by: Any) -> Any:
            return call_guest(ruleset, then_call, then, value, time_limit=limit, returns=checked_by)

        return value, Later(name, then_call, ask=ask)
    _not_still_busy(name, call)
    job = _Job(fn, (), {})
    job.then = _Job(then, (), {})
    following = job.then
    _Worker.run(job)
    if not job.done.wait(time_limit):
        raise _given_up(name, call, job, time_limit)
    value = _checked(name, call, _outcome(name, call, job), returns)
    return value, Later(name, then_call, following)


class Ahead:
    """A ruleset's work started before anyone asks for it (``call_guest_ahead``)."""

    __slots__ = ("_job",)

    def __init__(self, job: _Job) -> None:
        self._job = job

    @property
    def done(self) -> bool:
        """It returned or raised."""
        return self._job.done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` s for it to end (tests, a script); True when it has."""
        return self._job.done.wait(timeout)

    def answer(self) -> Any:
        """What it gave, once done; ``None`` while it works, and when it failed (the work made
        again when it is wanted meets the failure and says it, with its time limit)."""
        job = self._job
        return job.value if job.done.is_set() and job.error is None else None


def call_guest_ahead(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Ahead:
    """``fn(*args, **kwargs)`` started in a worker thread and not waited for: work the desk
    will probably want next, done while the umpire reads what is shown (issue 48: the next
    step worked out ahead). Guarded calls made in it run there with no time limit of their
    own and their failures are told to no watcher: the answer is used only if it came, and
    what failed is met again, guarded and said, when the work is done for real."""

    def ahead() -> Any:
        _inside.ahead = True
        try:
            return fn(*args, **kwargs)
        finally:
            _inside.ahead = False

    job = _Job(ahead, (), {})
    _Worker.run(job)
    return Ahead(job)


def _not_still_busy(name: str, call: str) -> None:
    """Refuse at once a call whose last one was given up and has not returned yet."""
    with _hanging_lock:
        earlier = _hanging.get((name, call))
        if earlier is not None and not earlier[0].done.is_set():
            raise GuestTimeout(name, call, earlier[1], still=True)
        _hanging.pop((name, call), None)


def _given_up(name: str, call: str, job: _Job, seconds: float) -> GuestTimeout:
    """A call that did not answer in ``seconds``, abandoned in its worker (``hanging``)."""
    with _hanging_lock:
        _hanging[(name, call)] = (job, seconds)
    return GuestTimeout(name, call, seconds)


def _answer(made: Call) -> Any:
    """A recorded call's answer: its value, its error, its verdict, or still pending."""
    if made.verdict is not None:
        raise made.verdict
    if not made.job.done.is_set():
        raise GuestPending(made)
    try:
        return _outcome(made.ruleset, made.call, made.job)
    except GuestError as e:
        made.verdict = e
        raise


def _outcome(name: str, call: str, job: _Job) -> Any:
    error = job.error
    if error is not None:
        if isinstance(error, REFUSALS):
            raise error
        raise GuestError(name, call, _brief(error), error) from error
    return job.value


def _checked(name: str, call: str, result: T, returns: Any) -> T:
    if returns is None:
        return result
    if isinstance(returns, type | tuple):
        if not isinstance(result, returns):
            wanted = (
                " or ".join(t.__name__ for t in returns)
                if isinstance(returns, tuple)
                else returns.__name__
            )
            raise GuestError(
                name, call, f"returned {type(result).__name__}, not {wanted}"
            ) from None
        return result
    try:
        checked: T = returns(result)
    except (TypeError, ValueError) as e:
        raise GuestError(name, call, f"returned {e}") from None
    return checked


def _shown(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def sequence_of(kind: type | tuple[type, ...]) -> Callable[[Any], Any]:
    """A checker: a list or tuple whose items are all ``kind``."""

    def check(value: Any) -> Any:
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            raise TypeError(f"{_shown(value)}, not a list")
        for i, item in enumerate(value):
            if not isinstance(item, kind):
                raise TypeError(f"a list whose item {i} is {_shown(item)}")
        return value

    return check


def mapping_of(key: type, value: type | tuple[type, ...]) -> Callable[[Any], Any]:
    """A checker: a mapping of ``key`` -> ``value``."""

    def check(result: Any) -> Any:
        if not isinstance(result, Mapping):
            raise TypeError(f"{_shown(result)}, not a mapping")
        for k, v in result.items():
            if not isinstance(k, key):
                raise TypeError(f"a mapping with the key {_shown(k)}")
            if not isinstance(v, value):
                raise TypeError(f"a mapping whose {k!r} is {_shown(v)}")
        return result

    return check


def odds_table(result: Any) -> dict[str, Fraction]:
    """A checker for odds: outcome label (text) -> exact probability (``Fraction`` or
    whole number, not ``bool``), each between 0 and 1, summing to exactly 1."""
    if not isinstance(result, Mapping):
        raise TypeError(f"{_shown(result)}, not a mapping of outcome -> probability")
    out: dict[str, Fraction] = {}
    for label, p in result.items():
        if not isinstance(label, str):
            raise TypeError(f"the outcome label {_shown(label)}, not text")
        if type(p) is not Fraction:  # a Fraction, the usual answer, is checked as it is
            if isinstance(p, bool) or not isinstance(p, Fraction | int):
                raise TypeError(f"the probability of {label!r} as {_shown(p)}, not a Fraction")
            p = Fraction(p)
        if p.numerator < 0 or p.numerator > p.denominator:
            raise ValueError(f"the probability {p} for {label!r}, outside 0 to 1")
        out[label] = p
    if not _sums_to_one(out.values()):
        raise ValueError(f"probabilities summing to {sum(out.values())}, not 1")
    return out


def _sums_to_one(ps: Iterable[Fraction]) -> bool:
    """Whether exact probabilities sum to exactly 1, in whole numbers over their least common
    denominator (issue 44: ``Fraction`` additions were a tenth of the odds stored with a roll)."""
    ps = list(ps)
    den = 1
    for p in ps:
        den = den * p.denominator // gcd(den, p.denominator)
    return sum(p.numerator * (den // p.denominator) for p in ps) == den


def _text(value: Any, what: str) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{what} as {_shown(value)}, not text")


def _texts(values: Any, what: str) -> None:
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise TypeError(f"{what} as {_shown(values)}, not a list of text")
    for v in values:
        _text(v, what)


def _whole(value: Any, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} as {_shown(value)}, not a whole number")


def card_spec(result: Any) -> Any:
    """A checker for a control card (``CardSpec``): every block one the renderer knows and
    every text, number and row of the type it draws, so nothing a plugin returns reaches the
    painter in a shape it was not made for."""
    from app.core.ruleset import CardSpec, KeyValues, Lines, Table, Track

    if not isinstance(result, CardSpec):
        raise TypeError(f"{_shown(result)}, not a CardSpec")
    _text(result.title, "the card's title")
    if isinstance(result.blocks, str | bytes) or not isinstance(result.blocks, Sequence):
        raise TypeError(f"the card's blocks as {_shown(result.blocks)}, not a list")
    for i, block in enumerate(result.blocks):
        where = f"block {i + 1}"
        if not isinstance(block, KeyValues | Table | Track | Lines):
            raise TypeError(f"{where} as {_shown(block)}, not a card block")
        _text(block.title, f"{where}'s title")
        if isinstance(block, KeyValues):
            if isinstance(block.items, str | bytes) or not isinstance(block.items, Sequence):
                raise TypeError(f"{where}'s items as {_shown(block.items)}, not a list")
            for item in block.items:
                if not isinstance(item, Sequence) or len(item) != 2:
                    raise TypeError(f"{where}'s item {_shown(item)}, not a (name, value) pair")
                _texts(item, f"{where}'s item")
        elif isinstance(block, Table):
            _texts(block.header, f"{where}'s header")
            if isinstance(block.rows, str | bytes) or not isinstance(block.rows, Sequence):
                raise TypeError(f"{where}'s rows as {_shown(block.rows)}, not a list")
            for row in block.rows:
                _texts(row, f"{where}'s row")
        elif isinstance(block, Track):
            _whole(block.total, f"{where}'s total")
            _whole(block.used, f"{where}'s used")
            if block.grey_from is not None:
                _whole(block.grey_from, f"{where}'s grey_from")
            _text(block.note, f"{where}'s note")
        else:
            _texts(block.lines, f"{where}'s lines")
    return result


def blocks_list(result: Any) -> Any:
    """A checker for a list of card blocks (``Ruleset.displays``), each checked as a control
    card's blocks are (``card_spec``)."""
    from app.core.ruleset import CardSpec

    if isinstance(result, str | bytes) or not isinstance(result, Sequence):
        raise TypeError(f"{_shown(result)}, not a list of blocks")
    card_spec(CardSpec("displays", tuple(result)))
    return list(result)


def steps_list(result: Any) -> Any:
    """A checker for a sequence of play: a list of ``Step`` whose texts are text and whose
    impulse is a whole number or none."""
    from app.core.ruleset import Step

    sequence_of(Step)(result)
    for i, step in enumerate(result):
        for name in ("phase", "title", "text", "rule"):
            _text(getattr(step, name), f"step {i + 1}'s {name}")
        if step.impulse is not None:
            _whole(step.impulse, f"step {i + 1}'s impulse")
        if step.segment is not None:
            _text(step.segment, f"step {i + 1}'s segment")
    return result


def acting_lines(result: Any) -> Any:
    """A checker for "who acts now": a list of ``ActingLine``s (who, what, and the procedure
    and other aircraft when it opens one), each field text. A tuple, the form before issue
    44, is refused naming the line and the type it must be."""
    from app.core.ruleset import ActingLine

    if isinstance(result, str | bytes) or not isinstance(result, Sequence):
        raise TypeError(f"{_shown(result)}, not a list of ActingLine")
    if all(
        type(line) is ActingLine
        and type(line.who) is str
        and type(line.what) is str
        and type(line.procedure) is str
        and type(line.other) is str
        for line in result
    ):
        return result  # the usual answer, checked without a message made per field (issue 44)
    for i, line in enumerate(result):
        if not isinstance(line, ActingLine):
            raise TypeError(
                f"line {i + 1} as {_shown(line)}, not an ActingLine "
                "(app.core.ruleset.ActingLine(who, what, procedure=..., other=...))"
            )
        for name in ("who", "what", "procedure", "other"):
            _text(getattr(line, name), f"line {i + 1}'s {name}")
    return result


def events_list(result: Any) -> Any:
    """A checker for events a ruleset makes: a list of the log's own event types."""
    from typing import get_args

    from app.core.events import Event

    return sequence_of(get_args(get_args(Event)[0]))(result)
