"""A crash-safe worker: a child process that runs programs sent to it one at a time, and the
pool that drives such workers from the parent.

The parent writes one JSON line per program (``{"id": ..., "source": ...}``) to the worker's
stdin and reads one JSON verdict line back. A worker that dies (a segfault in compiled code)
or does not answer within the timeout (a hang) is replaced, and the program is recorded as a
"crash" or a "hang": the run goes on.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import tempfile
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESTART_EVERY = 300         # programs per worker: compiled code accumulates in the JIT


def serve() -> None:
    reply = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)                               # the programs' prints go to stderr
    warnings.simplefilter("ignore")
    from .runner import run_program
    workdir = tempfile.mkdtemp(prefix="fuzz-worker-")
    # Every program gets a module name of its own, and no bytecode is written: a program
    # written under an earlier one's name within the same second and of the same size would
    # be run from that one's stale .pyc (its mtime is kept in whole seconds); run_one sends
    # every program as job 0
    sys.dont_write_bytecode = True
    for served, line in enumerate(sys.stdin):
        request = json.loads(line)
        tag = f"p{os.getpid()}_{served}_{request['id']}"
        try:
            verdict = run_program(request["source"], workdir, tag)
        except Exception as e:  # noqa: BLE001 - a bug in the harness itself, reported as such
            verdict = {"status": "harness_error", "detail": f"{type(e).__name__}: {e}"}
        reply.write(json.dumps(verdict) + "\n")
        reply.flush()
        try:
            os.unlink(os.path.join(workdir, f"{tag}.py"))
        except OSError:
            pass


class Worker:
    def __init__(self, stderr=subprocess.DEVNULL):
        env = dict(os.environ)
        env.setdefault("SCRIPT_VERIFY", "1")
        env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.fuzz.worker"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                     text=True, bufsize=1)
        self.served = 0
        self.job = None
        self.deadline = None

    def send(self, job_id, source: str, timeout: float) -> None:
        self.job = job_id
        self.deadline = time.monotonic() + timeout
        self.proc.stdin.write(json.dumps({"id": str(job_id), "source": source}) + "\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class Pool:
    """`jobs` workers. `run(jobs)` takes (id, source) pairs and yields (id, verdict)."""

    def __init__(self, jobs: int = 1, timeout: float = 60.0, stderr=subprocess.DEVNULL):
        self.timeout = timeout
        self.stderr = stderr
        self.workers = [Worker(stderr) for _ in range(jobs)]

    def run(self, jobs):
        jobs = iter(jobs)
        idle = list(self.workers)
        busy = {}
        sel = selectors.DefaultSelector()
        exhausted = False
        while True:
            while idle and not exhausted:
                try:
                    job_id, source = next(jobs)
                except StopIteration:
                    exhausted = True
                    break
                w = idle.pop()
                w.send(job_id, source, self.timeout)
                busy[w.proc.stdout] = w
                sel.register(w.proc.stdout, selectors.EVENT_READ)
            if not busy:
                return
            now = time.monotonic()
            wait = max(0.0, min(w.deadline for w in busy.values()) - now)
            events = sel.select(timeout=wait + 0.01)
            ready = {key.fileobj for key, _ in events}
            for f, w in list(busy.items()):
                verdict = None
                if f in ready:
                    line = f.readline()
                    if line:
                        verdict = json.loads(line)
                    else:
                        code = w.proc.wait()
                        verdict = {"status": "crash", "detail": f"worker died with exit status {code}"}
                elif time.monotonic() > w.deadline:
                    verdict = {"status": "hang", "detail": f"no answer in {self.timeout:.0f} s"}
                if verdict is None:
                    continue
                sel.unregister(f)
                del busy[f]
                job = w.job
                w.served += 1
                if verdict["status"] in ("crash", "hang") or w.served >= RESTART_EVERY:
                    self.workers.remove(w)
                    w.close()
                    w = Worker(self.stderr)
                    self.workers.append(w)
                idle.append(w)
                yield job, verdict

    def run_one(self, source: str) -> dict:
        for _, verdict in self.run([(0, source)]):
            return verdict

    def close(self) -> None:
        for w in self.workers:
            w.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


if __name__ == "__main__":
    serve()
