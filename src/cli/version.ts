/**
 * What `shipper --version` prints: `0.1.0 (commit 570c5fb1a2b3, built 2026-11-23T15:00:00Z)`, the
 * version first so that scripts can cut it. The build (scripts/build.mjs) bakes the version, the
 * git commit and the date in; run from the sources (tests), there is no build to describe.
 */
import type { BuildInfo } from '../../scripts/buildInfo.mjs';

declare const __SHIPPER_BUILD__: BuildInfo | undefined;

/** The build's facts; undefined when the sources run directly. */
export const BUILD: BuildInfo | undefined = typeof __SHIPPER_BUILD__ === 'undefined' ? undefined : __SHIPPER_BUILD__;

/** Kept equal to package.json's version (a test checks); the bundle uses the one baked in. */
const SOURCE_VERSION = '0.1.0';

export const VERSION = BUILD?.version ?? SOURCE_VERSION;

export function versionText(build: BuildInfo | undefined = BUILD): string {
  if (!build) return `${VERSION} (run from the sources: no build information)`;
  if (!build.commit) return `${build.version} (built ${build.date} outside a git checkout: commit unknown)`;
  return `${build.version} (commit ${build.commit}${build.modified ? ' with uncommitted changes' : ''}, built ${build.date})`;
}
