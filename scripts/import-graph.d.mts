/** Types of scripts/import-graph.mjs, for test/unit/import-graph.test.ts. */
export interface ImportCycle {
  /** Every file of the strongly connected group, relative to src/. */
  files: string[];
  /** One closed path through it (first file repeated at the end). */
  path: string[];
}

export interface FloorClimb {
  from: string;
  to: string;
  fromFloor: string;
  toFloor: string;
}

export interface ImportGraph {
  files: number;
  cycles: ImportCycle[];
  climbs: FloorClimb[];
  long: { file: string; lines: number }[];
}

export function importGraph(srcDir?: string): ImportGraph;
