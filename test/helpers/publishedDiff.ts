/**
 * What a document breaks of the published one, as api-smart-diff (a differ we did not write)
 * classifies it, restricted to the operations shipper serves: `/v1/shipper/**` and
 * `/v1/auth/token` unless told otherwise.
 *
 * One rule of ours on top of api-smart-diff's: a property removed from a response schema counts
 * as breaking. api-smart-diff calls it non-breaking when the schema does not forbid additional
 * properties (none of the published ones does), but a client that reads the field (the SDK's
 * generated types, a caller of the SDK) no longer gets it.
 */
import { apiCompare, isResponseSchema, type Diff } from 'api-smart-diff';

export interface BreakingChange {
  /** The path template of the published document ('/v1/shipper/quote'), or '' for a document-wide change. */
  path: string;
  /** 'POST', 'GET'...; '' when the whole path item changed (added or removed). */
  method: string;
  /** api-smart-diff's sentence: '[Added] required status to `x` in Request Body content (application/json)'. */
  description: string;
}

export const SERVED_PATHS = ['/v1/shipper/**', '/v1/auth/token'];

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The breaking changes from `published` to `ours` within `paths` (exact, or a prefix when ending in '/**'). */
export function breakingChanges(published: object, ours: object, options: { paths?: string[] } = {}): BreakingChange[] {
  const patterns = options.paths ?? SERVED_PATHS;
  const selected = (path: string) => patterns.some((pattern) => (pattern.endsWith('/**') ? path.startsWith(pattern.slice(0, -2)) : path === pattern));
  const { diffs } = apiCompare(keepPaths(published, selected), keepPaths(ours, selected));
  return diffs
    .filter((diff) => diff.path[0] === 'paths' || diff.path[0] === 'security')
    .filter((diff) => diff.type === 'breaking' || removedResponseProperty(diff))
    .map((diff) => {
      const method = String(diff.path[2] ?? '');
      return {
        path: diff.path[0] === 'paths' ? String(diff.path[1]) : '',
        method: METHODS.has(method) ? method.toUpperCase() : '',
        description: described(diff),
      };
    });
}

const ACTIONS: Record<string, [string, string]> = { add: ['Added', 'to'], remove: ['Removed', 'from'], replace: ['Replaced', 'of'] };

/**
 * api-smart-diff's sentence; where it leaves the subject out (a change inside a schema reached
 * through a $ref of a request body: " in Request Body content ..."), one in its words, so that no
 * allowlist rule can match a change it does not name.
 */
function described(diff: Diff): string {
  if (diff.description && !diff.description.startsWith(' ')) return diff.description;
  const schema = diff.path.indexOf('schema');
  const [action, preposition] = ACTIONS[diff.action] ?? [diff.action, 'of'];
  if (schema < 0) return `${diff.action} ${diff.path.join('.')}`;
  const keys = diff.path.slice(schema + 1).map(String);
  const required = keys.lastIndexOf('required');
  const field = (segments: string[]) =>
    segments
      .filter((key) => key !== 'properties')
      .join('.')
      .replace(/\.items(?=\.|$)/g, '[]');
  const where = diff.path[3] === 'requestBody' ? ' in Request Body content (application/json)' : ` in ${diff.path.slice(3, schema).join('.')}`;
  if (required >= 0) {
    const name = String(diff.action === 'remove' ? diff.before : diff.after);
    return `[${action}] required status ${preposition} \`${field([...keys.slice(0, required), name])}\`${where}`;
  }
  return `[${action}] ${keys.at(-1)} validator ${preposition} \`${field(keys.slice(0, -1))}\`${where}`;
}

function removedResponseProperty(diff: Diff): boolean {
  return diff.action === 'remove' && isResponseSchema(diff.path) && diff.path[diff.path.length - 2] === 'properties';
}

/** The document with only the selected path items (components stay: the $refs need them). */
function keepPaths(document: object, selected: (path: string) => boolean): object {
  const paths = (document as { paths?: Record<string, unknown> }).paths ?? {};
  return { ...document, paths: Object.fromEntries(Object.entries(paths).filter(([path]) => selected(path))) };
}
