// A background lane's worker thread (a report job's PDF or workbook: a minute of CPU and GB of heap) gives
// way to the request thread: on a machine with few cores, the two compete for the same CPU and the other
// people's requests would wait behind the job. The pool passes `workerData.nice`; the worker raises its
// own thread's nice value. Linux keeps the nice value per thread and setpriority(2) takes a thread id as
// the pid: /proc/thread-self names this thread's id. Elsewhere (or when not allowed), nothing changes.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';

/** Lowers this worker thread's priority by the nice value its pool asked for, from the process's (0 or none: unchanged). */
export function applyWorkerNice(): void {
  const nice = (workerData as { nice?: unknown } | null)?.nice;
  if (typeof nice !== 'number' || !Number.isInteger(nice) || nice <= 0) return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + nice));
  } catch {
    // not Linux, or not allowed: the worker keeps the process's priority
  }
}
