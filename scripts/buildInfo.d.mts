export interface BuildInfo {
  version: string;
  commit: string | null;
  modified: boolean;
  date: string;
}
export function buildInfo(root: string, env?: NodeJS.ProcessEnv): BuildInfo;
