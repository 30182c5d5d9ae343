/** The tariff of the local engine: read and validated once, on first use. */
import { tariffSchema, type Tariff } from '../../domain/tariff.js';
import { formatFieldPath } from '../../domain/validation.js';
import { describeFileError } from '../../fs/durableWrite.js';
import { NotRegularFileError, readRegularText } from '../../fs/regularFile.js';
import { defaultTariffFile } from '../../paths.js';
import { jsonSyntaxProblem } from '../../printable.js';
import { ProblemError, PROBLEM_TYPE_BASE } from '../problems.js';

/** A broken tariff is the operator's to fix: the file and the bad field, never sent over HTTP. */
function tariffFailure(internalDetail: string): ProblemError {
  return new ProblemError(
    { type: `${PROBLEM_TYPE_BASE}bad-tariff`, title: 'Bad Tariff', status: 500, detail: 'the service cannot read its tariff; the operator finds the cause in its log' },
    internalDetail,
  );
}

export class TariffProvider {
  private tariff: Promise<Tariff> | undefined;

  constructor(private readonly file: string = defaultTariffFile()) {}

  load(): Promise<Tariff> {
    this.tariff ??= this.read();
    // A failed read is not remembered: a fixed file is read again by the next call.
    this.tariff.catch(() => (this.tariff = undefined));
    return this.tariff;
  }

  private async read(): Promise<Tariff> {
    let json: unknown;
    let text = '';
    try {
      text = await readRegularText(this.file);
      json = JSON.parse(text);
    } catch (error) {
      // Never the file's own text (jsonSyntaxProblem): it would reach the terminal as it is.
      const reason =
        error instanceof SyntaxError ? jsonSyntaxProblem(error, text) : error instanceof NotRegularFileError ? `it is ${error.kind}, not a regular file` : describeFileError(error);
      throw tariffFailure(`cannot read the tariff ${this.file}: ${reason}`);
    }
    const parsed = tariffSchema.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues.slice(0, 3).map((issue) => `${formatFieldPath(issue.path)}: ${issue.message}`);
      throw tariffFailure(`the tariff ${this.file} is invalid: ${first.join('; ')}`);
    }
    return parsed.data;
  }
}
