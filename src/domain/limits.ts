/** Request limits shared by the zod schemas and the CLI, kept free of zod so the CLI's start-up stays light. */
export const MAX_TRANSIT_DESTINATIONS = 1000;
export const MAX_TRANSIT_PICKUP_DAYS = 60;
