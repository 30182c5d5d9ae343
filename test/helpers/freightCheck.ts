/** Test output without the freight check's warning lines (they have their own tests: test/domain/freightCheck.test.ts, test/cli/check.test.ts). */
import { FREIGHT_CHECK_LEVELS } from '../../src/domain/warnings.js';

const CHECK_LINE = new RegExp(`^warning: \\[(${Object.keys(FREIGHT_CHECK_LEVELS).join('|')})\\] .*(\\n|$)`, 'gm');

export function withoutFreightCheck(stderr: string): string {
  return stderr.replace(CHECK_LINE, '');
}
