/**
 * Companies (issue 41): every record belongs to one. Records made before companies, and those of a
 * store used without credentials, belong to the default company. Zod-free, for the CLI's start-up.
 */
export const DEFAULT_COMPANY_ID = 'default';
