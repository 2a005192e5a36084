import type { AgentCard } from '@a2a-js/sdk';
import { agentCardHandler } from '@a2a-js/sdk/server/express';
import type { AgentCard as AgentCardV03 } from 'a2a-sdk-v03';
import express from 'express';
import request from 'supertest';
import { validateAgentCard } from './card-validator';

/**
 * Cards exactly as the a2a-js SDK serves them: the 1.x SDK's v1.0 card and its v0.3 compatibility card
 * (what a client without an `A2A-Version` header gets), fetched over HTTP in-process.
 */
function lightsCore(securitySchemes: AgentCard['securitySchemes'] = {}): AgentCard {
  return {
    name: 'Lights Agent',
    description: 'Switches and dims the lights in every room of the house.',
    supportedInterfaces: [
      { url: 'https://lights.example.com/a2a/jsonrpc', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: 'https://lights.example.com/a2a/rest', protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
      { url: 'https://lights.example.com/a2a/v03', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Example Home', url: 'https://home.example.com' },
    version: '1.4.2',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes,
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'switch-lights',
        name: 'Switch lights',
        description: 'Turns the lights of a room on or off.',
        tags: ['lights'],
        examples: ['Turn on the kitchen lights'],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
      {
        id: 'dim-lights',
        name: 'Dim lights',
        description: 'Sets the brightness of a room.',
        tags: ['lights', 'brightness'],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

async function served(card: AgentCard, a2aVersion?: string): Promise<unknown> {
  const app = express();
  app.use(
    '/.well-known/agent-card.json',
    agentCardHandler({ agentCardProvider: async () => card, legacyCompat: { enabled: true } }),
  );
  const call = request(app).get('/.well-known/agent-card.json');
  const response = a2aVersion ? await call.set('A2A-Version', a2aVersion) : await call;
  expect(response.status).toBe(200);
  return response.body;
}

describe('cards served by the a2a-js SDK', () => {
  it('passes the v1.0 card of @a2a-js/sdk 1.x', async () => {
    const card = await served(lightsCore(), '1.0');
    expect(card).not.toHaveProperty('url');
    expect(validateAgentCard(card, { baseUrl: 'https://lights.example.com' })).toMatchObject({
      url: 'https://lights.example.com/a2a/jsonrpc',
      protocol_version: '1.0',
      version_valid: true,
      skill_count: 2,
      streaming: true,
      validation: 'passed',
      problems: [],
    });
  });

  it('passes the v0.3 compatibility card, which embeds supportedInterfaces, as a v0.3 card', async () => {
    const card = await served(lightsCore());
    expect(card).toHaveProperty('supportedInterfaces');
    expect(validateAgentCard(card, { baseUrl: 'https://lights.example.com' })).toMatchObject({
      url: 'https://lights.example.com/a2a/v03',
      protocol_version: '0.3',
      version_valid: true,
      validation: 'passed',
      problems: [],
    });
  });

  it('explains the in-memory security scheme form that @a2a-js/sdk 1.x serves on its v1.0 card', async () => {
    const schemes: AgentCard['securitySchemes'] = {
      bearer: {
        scheme: { $case: 'httpAuthSecurityScheme', value: { description: '', scheme: 'Bearer', bearerFormat: 'JWT' } },
      },
    };
    const v10 = validateAgentCard(await served(lightsCore(schemes), '1.0'));
    expect(v10.problems).toEqual([
      {
        severity: 'error',
        path: 'securitySchemes.bearer',
        message:
          'securitySchemes.bearer must set one of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme (it has {"scheme": {"$case": "httpAuthSecurityScheme", "value": ...}}, the in-memory form of the a2a-js SDK, not ProtoJSON; ProtoJSON is {"httpAuthSecurityScheme": ...})',
      },
    ]);
    // The compatibility layer translates schemes to the v0.3 form, so the same agent's legacy card passes.
    expect(validateAgentCard(await served(lightsCore(schemes))).validation).toBe('passed');
  });

  it('passes a card typed as the v0.3 SDK (@a2a-js/sdk 0.3) AgentCard', () => {
    const card: AgentCardV03 = {
      protocolVersion: '0.3.0',
      name: 'Lights Agent',
      description: 'Switches and dims the lights in every room of the house.',
      url: 'https://lights.example.com/a2a/jsonrpc',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [{ url: 'https://lights.example.com/a2a/rest', transport: 'HTTP+JSON' }],
      version: '1.4.2',
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      security: [{ apiKey: [] }],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'switch-lights', name: 'Switch lights', description: 'On and off.', tags: ['lights'] }],
    };
    expect(validateAgentCard(card)).toMatchObject({ validation: 'passed', push_notifications: true, problems: [] });
  });
});
