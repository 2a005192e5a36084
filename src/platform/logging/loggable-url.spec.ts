import { loggableUrl } from './loggable-url';

describe('loggableUrl', () => {
  it('hides checkout-link tokens and keeps everything else', () => {
    expect(loggableUrl('/shop/checkout/chk_s3cr3t')).toBe('/shop/checkout/[redacted]');
    expect(loggableUrl('/shop/checkout/chk_s3cr3t/confirm?x=1')).toBe('/shop/checkout/[redacted]/confirm?x=1');
    expect(loggableUrl('/api/agents/lights/v1')).toBe('/api/agents/lights/v1');
    expect(loggableUrl(undefined)).toBeUndefined();
  });
});
