/** Types of scripts/bundle-size.mjs, for bench/run.ts. */
export interface BundleMeasure {
  gzip: number;
  raw: number;
  dependencies: Record<string, number>;
  /** Which parts of the package (keys of MARKERS) the bundle contains. */
  contains: string[];
}
export type App = 'whole' | 'verifyOnly' | 'clientOnly' | 'schemasOnly';
export declare const MARKERS: Record<'client' | 'transport' | 'resources' | 'pagination', string>;
export declare const APPS: Record<App, string>;
export declare function measureBundles(apps?: Record<App, string>): Promise<Record<App, BundleMeasure>>;
export declare function treeShakingProblems(results: Record<App, BundleMeasure>): string[];
