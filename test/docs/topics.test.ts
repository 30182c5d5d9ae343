/**
 * Help topics are generated from the code they explain: each test compares a topic with its
 * source table, so a new exit code, column, alias, setting or file format cannot go unexplained.
 */
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/api/problems.js';
import { BILL_FORMATS } from '../../src/audit/bill.js';
import { SETTING_KINDS } from '../../src/config/settingKinds.js';
import { TENDER_FORMATS } from '../../src/edi/tender.js';
import { COLUMN_ALIASES, COLUMNS } from '../../src/import/columns.js';
import { HELP_TOPICS, topicArgv } from '../../src/cli/commands/helpTopics.js';
import { WARNING_CODES } from '../../src/domain/warnings.js';
import { SETTING_DESCRIPTIONS } from '../../src/cli/topics/config.js';
import { runInProcess } from '../helpers/inProcess.js';

const topic = async (name: string) => {
  const result = await runInProcess(['help', name]);
  expect(result.code).toBe(0);
  return result.stdout;
};

describe('help topics', () => {
  it('exit-codes explains every exit code the program has', async () => {
    const text = await topic('exit-codes');
    for (const code of Object.values(ExitCode)) expect(text).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
  });

  it('csv-columns lists every shipment and freight-line column with its aliases, and the refused headers', async () => {
    const text = (await topic('csv-columns')).replace(/\s+/g, ' ');
    for (const column of COLUMNS.filter((spec) => spec.level === 'shipment' || spec.level === 'component')) expect(text).toContain(` ${column.name} `);
    for (const { aliases } of COLUMN_ALIASES) for (const alias of aliases) expect(text).toContain(alias);
    expect(text).toContain('the freight class is computed from the weight and dimensions');
  });

  it('settings describes exactly the settings config set takes, in order, and shipper config --help shows them', async () => {
    expect(Object.keys(SETTING_DESCRIPTIONS)).toEqual(SETTING_KINDS.map((kind) => kind.key));
    expect(Object.values(SETTING_DESCRIPTIONS).every((text) => text.length > 10)).toBe(true);
    const text = await topic('settings');
    for (const kind of SETTING_KINDS) expect(text).toContain(kind.key);
    expect((await runInProcess(['config', '--help'])).stdout).toContain('bolCompanyPrefix');
  });

  it('warnings lists every warning code with its level and a line of its own', async () => {
    const text = await topic('warnings');
    for (const code of WARNING_CODES) expect(text).toMatch(new RegExp(`^  ${code} \\((info|warn|risk)\\)`, 'm'));
    expect(text).toContain('NON_STACKABLE_HEIGHT (risk)');
    expect(text).toContain('DENSITY_MARGIN (warn)');
  });

  it('formats names every tender and bill format', async () => {
    const text = await topic('formats');
    for (const format of [...TENDER_FORMATS, ...BILL_FORMATS]) expect(text).toContain(format);
  });

  it('`help <topic>`, `<topic> --help` and `<topic>` print the same text; the root help names the topics', async () => {
    for (const { name } of HELP_TOPICS) {
      const viaHelp = await runInProcess(['help', name]);
      const viaFlag = await runInProcess([name, '--help']);
      expect(viaHelp.stdout.length).toBeGreaterThan(100);
      expect(viaFlag.stdout.split('\n')[0]).toBe(viaHelp.stdout.split('\n')[0]);
    }
    const root = (await runInProcess(['--help'])).stdout;
    for (const { name } of HELP_TOPICS) expect(root).toContain(name);
  });

  it('rewrites only `help <topic>` as the command, never an option value or another command', () => {
    expect(topicArgv(['help', 'formats'])).toEqual(['formats']);
    expect(topicArgv(['--json', 'help', 'exit-codes'])).toEqual(['--json', 'exit-codes']);
    expect(topicArgv(['help', 'quote'])).toEqual(['help', 'quote']);
    expect(topicArgv(['ship', '--ref', 'help', 'formats'])).toEqual(['ship', '--ref', 'help', 'formats']);
  });
});
