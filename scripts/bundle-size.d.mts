/** Types of scripts/bundle-size.mjs, for bench/run.ts. */
export interface BundleMeasure {
  gzip: number;
  raw: number;
  dependencies: Record<string, number>;
  /** Which parts of the package (keys of MARKERS) the bundle contains. */
  contains: string[];
}
export type App = 'whole' | 'verifyOnly' | 'handlerOnly' | 'clientOnly' | 'schemasOnly';
export type Part = 'client' | 'transport' | 'resources' | 'pagination' | 'handler';
export declare const MARKERS: Record<Part, string>;
/** The parts each webhook-only app must not bundle. */
export declare const FORBIDDEN: Record<'verifyOnly' | 'handlerOnly', Part[]>;
export declare const APPS: Record<App, string>;
export declare function measureBundles(apps?: Record<App, string>): Promise<Record<App, BundleMeasure>>;
export declare function treeShakingProblems(results: Record<App, BundleMeasure>): string[];
