/** Billing state is asked for (and checked) only for these countries (spec, Customer and addresses). */
export const STATE_COUNTRIES: readonly string[] = ['CA', 'US', 'JP', 'AU', 'IN'];

export const needsBillingState = (country: string | undefined): boolean =>
  !!country && STATE_COUNTRIES.includes(country.toUpperCase());
