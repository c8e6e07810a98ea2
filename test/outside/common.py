"""What every suite shares: running a bounded command, and a test's result."""
import os
import signal
import subprocess
import time

PASS, FAIL, SKIP = "pass", "fail", "skip"


def result(status, detail=""):
    """One test's outcome; detail says why it failed or was skipped."""
    return {"status": status, "detail": detail[-2000:]}


def run(cmd, env=None, cwd=None, timeout=300):
    """Runs cmd in a session of its own; on timeout kills the whole session
    (suites start compilers and helper processes). Returns (rc, output,
    timed_out, seconds); output is stdout and stderr interleaved."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        timed_out = True
    text = out.decode("utf-8", errors="replace")
    return proc.returncode, text, timed_out, time.monotonic() - start


def tail(text, lines=15):
    return "\n".join(text.rstrip().splitlines()[-lines:])
