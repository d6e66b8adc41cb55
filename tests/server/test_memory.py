"""The collector while serving (server/memory.py): what survives a collection is
frozen, so that no later collection walks it again (the middle generation's collections were
the tail of the load benchmark's latency); a full collection still frees the cycles among
frozen objects."""

from __future__ import annotations

import gc
import weakref

import pytest

from judges.server import memory


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def survivors_frozen():
    """The policy's callback in this test process only for the test (the test process keeps
    CPython's own policy), and the heap as it was found afterwards."""
    gc.callbacks.append(memory.freeze_survivors)
    try:
        yield
    finally:
        gc.callbacks.remove(memory.freeze_survivors)
        gc.unfreeze()


def in_a_generation(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects())


def test_issue_32_what_survives_a_young_collection_is_walked_no_more(survivors_frozen):
    kept = [Node() for _ in range(10)]
    assert in_a_generation(kept)
    gc.collect(0)
    assert not in_a_generation(kept)  # frozen: out of every generation the collector walks
    assert gc.is_tracked(kept)


def test_issue_32_a_full_collection_frees_a_cycle_that_was_frozen(survivors_frozen):
    a, b = Node(), Node()
    a.other, b.other = b, a
    alive = weakref.ref(a)
    gc.collect(0)  # the cycle survives it: frozen
    del a, b
    gc.collect(0)
    assert alive() is not None  # a frozen cycle is not walked by a young collection
    memory.collect_fully()
    assert alive() is None


def test_a_long_collection_is_noted_with_its_generation_and_its_cpu(survivors_frozen, monkeypatch):
    """Each collection that held the interpreter PAUSE_MS_NOTED ms or more is noted (the load
    benchmark reads them): here every collection counts as long."""
    monkeypatch.setattr(memory, "PAUSE_MS_NOTED", 0.0)
    monkeypatch.setattr(memory, "pauses", type(memory.pauses)(maxlen=memory.PAUSES_KEPT))
    cycle = [Node(), Node()]
    cycle[0].other, cycle[1].other = cycle[1], cycle[0]
    del cycle
    gc.collect(0)
    gc.collect(2)
    generations = [generation for _, generation, _, _, _ in memory.pauses]
    assert generations[-2:] == [0, 2]
    assert all(took >= 0 and cpu >= 0 for _, _, took, cpu, _ in memory.pauses)
    assert memory.pauses[-2][4] >= 2  # the young collection freed the two nodes' cycle
