"""A socket's outbox (server/outbox.py): frames in order, back-pressure, a stalled socket dropped,
and (issue 40) small enough for a node holding thousands of idle sockets."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc

from trapworks.server.outbox import Outbox, SocketDropped


def _outbox(sent: list[str], **kw) -> Outbox:
    async def send_text(text: str) -> None:
        sent.append(text)

    async def close(code: int, reason: str) -> None:
        sent.append(f"close {code}")

    return Outbox(send_text, close, str, **kw)


def test_frames_go_out_in_order_and_a_full_outbox_drops_its_socket():
    async def main() -> None:
        sent: list[str] = []
        box = _outbox(sent, limit=4)
        for i in range(3):
            box.put_nowait(i)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert sent[:3] == ["0", "1", "2"]
        dropped: list[bool] = []
        box.on_drop = lambda: dropped.append(True)

        async def never(_text: str) -> None:
            await asyncio.sleep(3600)

        stuck = Outbox(never, box._close, str, limit=2, send_timeout=0.05)
        stuck.on_drop = lambda: dropped.append(True)
        stuck.put_nowait("a")  # taken by the writer, whose send never ends
        await asyncio.sleep(0)
        stuck.put_nowait("b")
        stuck.put_nowait("c")
        room = asyncio.ensure_future(stuck.room())  # the reader waits: the outbox is half full
        await asyncio.sleep(0.2)  # the stalled send times out: dropped
        assert stuck.dropped and "stalled" in stuck.dropped and dropped == [True]
        await room  # the waiting reader is let go
        try:
            stuck.put_nowait("d")
            raise AssertionError("a dropped outbox took a frame")
        except SocketDropped:
            pass
        await box.aclose()
        await stuck.aclose()

    asyncio.run(main())


def test_an_idle_outbox_is_small():
    """An idle socket holds its outbox for hours: under 2 KB each with its waiting writer and
    this test's two callbacks (an asyncio.Queue and two Events made it 6.3 KB: their empty
    deques are ~760 bytes apiece; measured 1.6 KB after)."""

    async def main() -> int:
        sent: list[str] = []
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        boxes = [_outbox(sent) for _ in range(200)]
        await asyncio.sleep(0)  # every writer waits for its first frame
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        size = sum(s.size_diff for s in after.compare_to(before, "filename"))
        for box in boxes:
            await box.aclose()
        return size // len(boxes)

    assert asyncio.run(main()) < 2048
