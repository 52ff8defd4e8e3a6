/** The merchants read model: one row per merchant, what every request's authentication reads. */

export interface MerchantsTable {
  merchant_id: string;
  name: string;
  environment: string;
  client_key: string;
  merchant_key: string;
  password_ciphertext: string;
  payment_mode: string;
  notification_url: string | null;
  /** JSON array of CIDR blocks. */
  ip_allowlist: string;
  refunds_enabled: number;
  /** JSON of the merchant's ProtocolMapping; null in rows written before the column existed (all off). */
  protocol_mapping: string | null;
  /** Override Link Target (`_blank`, `_self`, `_parent`, `_top`); null when unset or in rows from before the column. */
  override_link_target: string | null;
  /** card_on_file_support, 0/1; null in rows from before the column (off). */
  card_on_file_support: number | null;
  /** JSON array of the merchant's connectors in routing order; null when never set (the default route). */
  connectors: string | null;
  /** JSON of the merchant's methods setting (`"all"` or an array); null when never set (its environment's default). */
  methods: string | null;
  registered_at: string;
  updated_at: string;
}

export interface MerchantsTables {
  merchants: MerchantsTable;
}
