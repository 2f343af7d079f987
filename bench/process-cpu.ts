// CPU time of a process and its children, from /proc (Linux only): what the write benchmarks
// report per request or per call.
import { readFileSync } from 'node:fs'

/** CPU seconds (user + system) of a process and its children so far; 0 once it is gone. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0)
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
    return ticks / 100 + children.reduce((sum, child) => sum + cpuSeconds(child), 0)
  } catch {
    return 0
  }
}
