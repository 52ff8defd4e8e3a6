/**
 * Merchant settings as operators type them, read by the one parser the CLI and the dashboard share:
 * what each setting accepts, and how a refusal is worded (`<setting> <message>`).
 */
import { expect } from 'chai';
import { parseMerchantSettings, registrationOf, withMappingChanges, type MerchantSettingsInput } from '../../src/application/merchant-settings-input';
import { protocolMapping } from '../../src/domain/merchant/protocol-mapping';

const refusal = (input: MerchantSettingsInput, forUpdate = false) => {
  const parsed = parseMerchantSettings(input, { forUpdate });
  if (parsed.ok) throw new Error('expected a refusal');
  return parsed.problems.map((p) => `${p.setting} ${p.message}`);
};

describe('Merchant settings input', function () {
  it('Given every setting as text, then each becomes the merchant setting it names', () => {
    const parsed = parseMerchantSettings(
      {
        name: '  Corner Bookshop ',
        'notification-url': 'https://shop.example/callbacks',
        'payment-mode': 'DMS',
        'ip-allowlist': '203.0.113.0/24, 2001:db8::1',
        refunds: 'off',
        'link-target': '_top',
        'card-on-file': 'on',
        connectors: 'sandbox-b, sandbox',
        methods: 'applepay, googlepay',
        'callback-fields': 'arn_rrn,brand',
        'return-params': 'none',
        'required-fields': 'all',
      },
      { forUpdate: false },
    );
    expect(parsed.ok).to.equal(true);
    if (!parsed.ok) return;
    expect(parsed.value.settings).to.deep.equal({
      name: 'Corner Bookshop',
      notificationUrl: 'https://shop.example/callbacks',
      paymentMode: 'DMS',
      ipAllowlist: ['203.0.113.0/24', '2001:db8::1'],
      refundsEnabled: false,
      overrideLinkTarget: '_top',
      cardOnFileSupport: true,
      connectors: ['sandbox-b', 'sandbox'],
      methods: ['applepay', 'googlepay'],
    });
    expect(parsed.value.mapping?.fields).to.deep.equal(['arn_rrn', 'brand']);
    expect(parsed.value.mapping?.returnParameters).to.deep.equal([]);
    expect(parsed.value.mapping?.requiredFields?.length).to.be.greaterThan(0);
  });

  it('Given settings that are not valid, then every problem is reported, each as "<setting> <message>"', () => {
    expect(
      refusal({
        name: ' ',
        'notification-url': 'ftp://shop.example',
        'payment-mode': 'MONTHLY',
        'ip-allowlist': '10.0.0.0/8,10.0.0.300',
        refunds: 'yes',
        'link-target': '_window',
        'card-on-file': 'maybe',
        connectors: ' , ',
        methods: ' , ',
        'callback-fields': 'brand,shoe_size',
      }),
    ).to.deep.equal([
      'name must not be empty',
      'notification-url must be an http(s) URL (got "ftp://shop.example")',
      'payment-mode must be one of SMS, DMS, SMS/DMS',
      'ip-allowlist has "10.0.0.300", which is not an IP address or CIDR block',
      'refunds must be on or off',
      'link-target must be one of _blank, _self, _parent, _top or none',
      'card-on-file must be on or off',
      'connectors must name at least one connector',
      'methods must be all, none or a comma-separated list of methods',
      `callback-fields is not valid: ${(() => {
        try {
          protocolMapping({ fields: ['brand', 'shoe_size'] });
        } catch (error) {
          return (error as Error).message;
        }
        return '';
      })()}`,
    ]);
  });

  it('Given none on update, then the notification URL, the allowlist and the link target are removed; on create none is not a URL', () => {
    const parsed = parseMerchantSettings({ 'notification-url': 'none', 'ip-allowlist': 'none', 'link-target': 'none' }, { forUpdate: true });
    expect(parsed.ok && parsed.value.settings).to.deep.equal({ notificationUrl: null, ipAllowlist: [], overrideLinkTarget: null });
    expect(refusal({ 'notification-url': 'none' })).to.deep.equal(['notification-url must be an http(s) URL (got "none")']);
  });

  it('Given settings not given, then they stay as they are: nothing is changed, a mapping list not given keeps its value', () => {
    const parsed = parseMerchantSettings({ 'return-params': 'all' }, { forUpdate: true });
    expect(parsed.ok && parsed.value.settings).to.deep.equal({});
    const current = protocolMapping({ fields: ['brand'], returnParameters: [], requiredFields: [] });
    const next = withMappingChanges(current, parsed.ok ? parsed.value.mapping! : {});
    expect(next.fields).to.deep.equal(['brand']);
    expect(next.returnParameters.length).to.be.greaterThan(0);
  });

  it('Given a creation, then a name is required and the rest is handed to the merchant service as given', () => {
    const without = parseMerchantSettings({ 'payment-mode': 'SMS' }, { forUpdate: false });
    expect(without.ok && registrationOf(without.value)).to.equal(null);
    const withName = parseMerchantSettings({ name: 'Shop', 'payment-mode': 'SMS', 'callback-fields': 'brand' }, { forUpdate: false });
    expect(withName.ok && registrationOf(withName.value)).to.deep.include({ name: 'Shop', paymentMode: 'SMS', protocolMapping: { fields: ['brand'] } });
  });
});
