"""Child process for the crash-durability test: acts in a loop, acknowledging each action.

It prints ``ack <seq>`` only after ``GameSession`` returned, i.e. after the append is durable.
"""

import random
import sys

import app.session.log
from app.core.dice import SeededDice
from app.core.errors import RuleViolation
from app.session import GameSession

app.session.log.SNAPSHOT_EVERY = 7  # snapshots get written (and interrupted) often

path, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
s = GameSession.open(path)
ids = list(s.engagement.aircraft)
while True:
    r = rng.random()
    try:
        if r < 0.5:
            a, b = rng.sample(ids, 2)
            s.perform(
                "gun_attack",
                {"attacker": a, "target": b, "snap_shot": True},
                SeededDice(rng.randrange(1 << 30)),
            )
        elif r < 0.65:
            s.undo()
        elif r < 0.75:
            s.redo()
        else:
            s.clock.next_step()
    except RuleViolation:
        s.add_aircraft(side=rng.choice(["Blue", "Red"]), type_id="jet", name="Spare")
        ids = list(s.engagement.aircraft)
        continue
    print("ack", s.engagement.seq, flush=True)
