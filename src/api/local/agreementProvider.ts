/**
 * The carrier agreements of the local engine (`--tariffs DIR`): read and checked once per process,
 * on first use; none without the setting. A directory with any fault prices nothing: the operator
 * is told every `file:line` (shipper tariff check DIR), never a half-loaded set of carriers.
 */
import type { CarrierAgreement } from '../../domain/agreements/rateAgreement.js';
import { ProblemError, PROBLEM_TYPE_BASE } from '../problems.js';

export class AgreementProvider {
  private agreements: Promise<CarrierAgreement[]> | undefined;

  constructor(private readonly setting: string | undefined) {}

  /** Whether agreements are configured at all. */
  get configured(): boolean {
    return this.setting !== undefined;
  }

  load(): Promise<CarrierAgreement[]> {
    this.agreements ??= this.read();
    this.agreements.catch(() => (this.agreements = undefined));
    return this.agreements;
  }

  private async read(): Promise<CarrierAgreement[]> {
    if (this.setting === undefined) return [];
    const { agreementsDirOf, loadAgreementDirectory } = await import('../../agreements/loadAgreements.js');
    const { agreements, faults } = await loadAgreementDirectory(agreementsDirOf(this.setting));
    if (faults.length > 0) {
      const shown = faults.slice(0, 5).map((fault) => `${fault.where}: ${fault.message}`);
      const more = faults.length > shown.length ? `; and ${faults.length - shown.length} more (shipper tariff check ${this.setting})` : '';
      throw new ProblemError(
        {
          type: `${PROBLEM_TYPE_BASE}bad-tariff`,
          title: 'Bad Tariff',
          status: 500,
          detail: 'the service cannot read its carrier agreements; the operator finds the cause in its log',
        },
        `the carrier agreements in ${this.setting} are invalid: ${shown.join('; ')}${more}`,
      );
    }
    return agreements;
  }
}

/** The agreements one company prices with: its own (companyIds naming it) and those of every company. */
export class CompanyAgreements {
  constructor(
    private readonly all: AgreementProvider,
    private readonly companyId: string,
  ) {}

  get configured(): boolean {
    return this.all.configured;
  }

  async load(): Promise<CarrierAgreement[]> {
    return (await this.all.load()).filter(({ agreement }) => !agreement.companyIds || agreement.companyIds.includes(this.companyId));
  }
}
