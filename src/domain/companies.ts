/**
 * Companies (issue 41): every record belongs to one. Records made before companies, and those of a
 * store used without credentials, belong to the default company. Zod-free, for the CLI's start-up.
 */
export const DEFAULT_COMPANY_ID = 'default';

/** Who is calling: the company whose records a call may see, and the key that writes (null: none, the local CLI or an open sandbox). */
export interface CompanyScope {
  companyId: string;
  keyId: string | null;
}

/** The company a record belongs to: the default one for records written before companies. */
export function companyOf(record: { companyId?: string | undefined }): string {
  return record.companyId ?? DEFAULT_COMPANY_ID;
}
