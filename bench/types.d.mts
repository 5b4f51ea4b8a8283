/** Declarations of bench/types.mjs (the editor cost of the SDK's types), for bench/run.ts. */
export interface EditorCostRow {
  what: string;
  files: number;
  types: number;
  instantiations: number;
  memoryKB: number;
  checkMs: number;
  totalMs: number;
  errors: number;
}
export interface EditorCostComparison {
  difference: { types: number; instantiations: number; checkMs: number; totalMs: number };
  ratio: {
    types: number | null;
    instantiations: number | null;
    checkMs: number | null;
    totalMs: number | null;
  };
}
export interface EditorCost {
  id: 'T1';
  what: string;
  baseline: string;
  result: string;
  compiler: string;
  runs: number;
  modes: {
    id: 'consumer' | 'editor';
    label: string;
    rows: { baseline: EditorCostRow; usage: EditorCostRow; usageStubbed?: EditorCostRow };
    usage: EditorCostComparison;
    usageStubbed?: EditorCostComparison;
  }[];
}
export function measureEditorCost(options?: {
  quick?: boolean;
  runs?: number;
  log?: (line: string) => void;
}): Promise<EditorCost>;
export function formatEditorCost(cost: EditorCost): string[];
