"""The exchange layer of context parallelism: one small interface.

A transport moves tensors point to point between the ranks of one group:

    pending = transport.exchange(sends=[(peer, tensor), ...],
                                 recvs=[(peer, buffer), ...])
    ...                                   # overlap: compute meanwhile
    pending.wait()                        # buffers now hold the data

Messages between two ranks arrive in the order they were posted, at most one
per pair and direction in one exchange. TorchDistributedTransport is the
production one (torch.distributed's batch_isend_irecv: NCCL on GPUs, gloo on
CPUs); LoopbackGroup runs every rank as a thread of one process, for tests
and for running all ranks' kernels on one GPU.
"""

import threading
from collections import deque

__all__ = ["Transport", "TorchDistributedTransport", "LoopbackGroup"]


class Transport:
    """rank, world_size, exchange(sends, recvs) -> object with wait(), and
    bytes_sent (what this rank has sent so far)."""

    rank = 0
    world_size = 1

    def __init__(self):
        self.bytes_sent = 0

    def exchange(self, sends, recvs):
        raise NotImplementedError

    def _count(self, sends):
        self.bytes_sent += sum(t.numel() * t.element_size() for _, t in sends)


class _Requests:
    def __init__(self, requests):
        self._requests = requests

    def wait(self):
        for request in self._requests:
            request.wait()


class TorchDistributedTransport(Transport):
    """Point-to-point over a torch.distributed process group (the default
    group when None), posted as one batch_isend_irecv. A rank with nothing
    to send or receive posts nothing; with NCCL, whose first
    batch_isend_irecv must involve every rank of the group, run a collective
    (dist.barrier()) before the first step when such a rank can exist."""

    def __init__(self, group=None):
        super().__init__()
        import torch.distributed as dist
        self._dist = dist
        self.group = group
        self.rank = dist.get_rank(group)
        self.world_size = dist.get_world_size(group)

    def _global(self, peer):
        if self.group is None:
            return peer
        get = getattr(self._dist, "get_global_rank", None)
        if get is None:  # torch < 2.0
            get = self._dist.distributed_c10d._get_global_rank
        return get(self.group, peer)

    def exchange(self, sends, recvs):
        dist = self._dist
        ops = [dist.P2POp(dist.isend, t.contiguous(), self._global(p), self.group)
               for p, t in sends]
        ops += [dist.P2POp(dist.irecv, b, self._global(p), self.group) for p, b in recvs]
        self._count(sends)
        return _Requests(dist.batch_isend_irecv(ops) if ops else [])


class LoopbackGroup:
    """A group of `world_size` ranks inside one process, one thread each:

        results, transports = LoopbackGroup(4).run(work)   # work(transport)

    A send is copied into the receiver's mailbox at once; wait() blocks until
    every expected message has arrived (at most `timeout` seconds, then it
    raises instead of hanging)."""

    def __init__(self, world_size, timeout=120.0):
        self.world_size = world_size
        self.timeout = timeout
        self._cv = threading.Condition()
        self._boxes = {}

    def run(self, fn):
        """fn(transport) on one thread per rank; the results in rank order,
        with the first rank's exception re-raised here."""
        transports = [self.transport(r) for r in range(self.world_size)]
        results, errors = [None] * self.world_size, []

        def work(r):
            try:
                results[r] = fn(transports[r])
            except BaseException as e:  # re-raised by the caller's thread
                errors.append(e)
        threads = [threading.Thread(target=work, args=(r,)) for r in range(self.world_size)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        return results, transports

    def transport(self, rank):
        if not 0 <= rank < self.world_size:
            raise ValueError(f"rank: expected 0 <= rank < {self.world_size}, got {rank}")
        return _LoopbackTransport(self, rank)

    def _post(self, src, dst, tensor):
        with self._cv:
            self._boxes.setdefault((src, dst), deque()).append(tensor.detach().clone())
            self._cv.notify_all()

    def _take(self, src, dst):
        with self._cv:
            if not self._cv.wait_for(lambda: self._boxes.get((src, dst)), self.timeout):
                raise RuntimeError(f"loopback: rank {dst} waited {self.timeout} s for a "
                                   f"message from rank {src}")
            return self._boxes[(src, dst)].popleft()


class _LoopbackPending:
    def __init__(self, transport, recvs):
        self._transport, self._recvs = transport, recvs

    def wait(self):
        t = self._transport
        for peer, buffer in self._recvs:
            message = t.group._take(peer, t.rank)
            if message.shape != buffer.shape or message.dtype != buffer.dtype:
                raise RuntimeError(f"loopback: rank {t.rank} expected {tuple(buffer.shape)} "
                                   f"{buffer.dtype} from rank {peer}, got "
                                   f"{tuple(message.shape)} {message.dtype}")
            buffer.copy_(message)
        self._recvs = []


class _LoopbackTransport(Transport):
    def __init__(self, group, rank):
        super().__init__()
        self.group, self.rank, self.world_size = group, rank, group.world_size

    def exchange(self, sends, recvs):
        for peer, tensor in sends:
            if not 0 <= peer < self.world_size or peer == self.rank:
                raise ValueError(f"loopback: rank {self.rank} cannot send to rank {peer}")
            self.group._post(self.rank, peer, tensor)
        self._count(sends)
        return _LoopbackPending(self, list(recvs))
