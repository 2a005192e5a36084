import { DataSource } from 'typeorm';
import { AgentHost } from '../src/a2a/hosting/agent-host';
import { RemoteAgent, startLightsAgent } from './support/remote-agents';
import { startWebhookReceiver } from './support/webhook-receiver';
import { messageSend, registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

describe('push notifications (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', RATE_LIMIT_REGISTRY_PER_MIN: '100' });
    lights = await startLightsAgent();
    await registerAgent(t, lights.baseUrl, 'lights');
  });
  afterAll(async () => {
    await t?.close();
    await lights?.close();
  });

  const sendWithPush = (url: string, token: string) =>
    t
      .http()
      .post('/api/agents/lights/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send(
        messageSend('porch on', {
          params: { configuration: { blocking: true, pushNotificationConfig: { url, token } } },
        }),
      )
      .expect(200);

  it('posts each update in the v0.3 format with the token, retrying a failing webhook, and logs deliveries', async () => {
    const hook = await startWebhookReceiver(1);
    try {
      const res = await sendWithPush(hook.url, 'secret-token-1');
      const taskId = res.body.result.id as string;
      await t.app.get(AgentHost).drainPushNotifications();
      expect(hook.received.length).toBeGreaterThan(0);
      expect(hook.calls()).toBe(hook.received.length + 1);
      for (const delivery of hook.received) {
        expect(delivery.headers['x-a2a-notification-token']).toBe('secret-token-1');
        expect(delivery.body).toMatchObject({ kind: 'task', id: taskId });
      }
      expect(hook.received.at(-1)!.body).toMatchObject({ status: { state: 'completed' } });

      const log = await t.app
        .get(DataSource)
        .query(
          `SELECT outcome, attempts, http_status, target, error FROM a2a_push_deliveries WHERE task_id = $1 ORDER BY created_at`,
          [taskId],
        );
      expect(log[0]).toEqual({ outcome: 'delivered', attempts: 2, http_status: 200, target: hook.url, error: null });
      expect(log.every((row: { outcome: string }) => row.outcome === 'delivered')).toBe(true);
      const stored = await t.app
        .get(DataSource)
        .query(`SELECT token_sealed FROM a2a_push_configs WHERE task_id = $1`, [taskId]);
      expect(stored[0].token_sealed).toMatch(/^v1:/);
      expect(JSON.stringify(stored)).not.toContain('secret-token-1');
    } finally {
      await hook.close();
    }
  });

  it('gives up after the retries and records why', async () => {
    const hook = await startWebhookReceiver(100);
    try {
      const res = await sendWithPush(hook.url, 't');
      await t.app.get(AgentHost).drainPushNotifications();
      const log = await t.app
        .get(DataSource)
        .query(
          `SELECT outcome, attempts, http_status, error FROM a2a_push_deliveries WHERE task_id = $1 ORDER BY created_at LIMIT 1`,
          [res.body.result.id],
        );
      expect(log[0]).toEqual({ outcome: 'failed', attempts: 4, http_status: 500, error: 'HTTP 500' });
    } finally {
      await hook.close();
    }
  }, 30_000);

  it('refuses to register a webhook at a cloud metadata address, without echoing the URL', async () => {
    const res = await sendWithPush('http://169.254.169.254/hook?token=abc', 't');
    expect(res.body.error).toEqual({
      code: -32602,
      message: 'Push notification url is not allowed: link-local/cloud-metadata addresses are never allowed',
    });
  });

  it('rejects a webhook URL that is not absolute http(s) with -32602', async () => {
    const res = await t
      .http()
      .post('/api/agents/lights/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send(
        messageSend('x', {
          id: 2,
          params: { configuration: { blocking: true, pushNotificationConfig: { url: 'file:///etc/passwd' } } },
        }),
      )
      .expect(200);
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32602, message: 'Push notification url must use http or https, got "file:"' },
    });
  });
});
