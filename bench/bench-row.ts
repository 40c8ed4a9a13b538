/**
 * One line of BENCHMARKS.md: a figure beside a reference measured in the same run (so a noisy,
 * shared machine moves both), and, where the design sets one, the target and whether it was met.
 */
export interface BenchRow {
  what: string;
  figure: string;
  reference: string;
  ratio: string;
  /** The target from the design brief or the issue, in words; absent when none is set. */
  target?: string;
  pass?: boolean;
}

export function withTarget<R extends BenchRow>(row: R, target: string, pass: boolean): R {
  return { ...row, target, pass };
}
