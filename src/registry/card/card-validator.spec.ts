import { CardProblem, CardValidationReport, summarizeErrors, validateAgentCard } from './card-validator';

// The fixtures are mutated freely to build broken cards, which is what `any` is for here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Card = Record<string, any>;

/** A complete A2A v0.3 card, as a lights agent built on a v0.3 SDK would serve it. */
function lightsCardV03(): Card {
  return {
    protocolVersion: '0.3.0',
    name: 'Lights Agent',
    description: 'Switches and dims the lights in every room of the house.',
    url: 'https://lights.example.com/a2a/jsonrpc',
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: 'https://lights.example.com/a2a/jsonrpc', transport: 'JSONRPC' },
      { url: 'https://lights.example.com/a2a/rest', transport: 'HTTP+JSON' },
      { url: 'lights.example.com:50051', transport: 'GRPC' },
    ],
    provider: { organization: 'Example Home', url: 'https://home.example.com' },
    iconUrl: 'https://lights.example.com/icon.png',
    documentationUrl: 'https://docs.home.example.com/lights',
    version: '1.4.2',
    capabilities: {
      streaming: true,
      pushNotifications: false,
      stateTransitionHistory: false,
      extensions: [
        {
          uri: 'https://home.example.com/extensions/rooms/v1',
          description: 'Room names and floors',
          required: false,
          params: { maxRooms: 32 },
        },
      ],
    },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT', description: 'Switchboard access token' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      oauth: {
        type: 'oauth2',
        flows: {
          clientCredentials: {
            tokenUrl: 'https://auth.home.example.com/token',
            scopes: { 'lights:write': 'Switch and dim lights' },
          },
          authorizationCode: {
            authorizationUrl: 'https://auth.home.example.com/authorize',
            tokenUrl: 'https://auth.home.example.com/token',
            scopes: {},
          },
        },
      },
      oidc: {
        type: 'openIdConnect',
        openIdConnectUrl: 'https://auth.home.example.com/.well-known/openid-configuration',
      },
      mtls: { type: 'mutualTLS', description: 'Client certificates for the hub' },
    },
    security: [{ bearer: [] }, { oauth: ['lights:write'] }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'switch-lights',
        name: 'Switch lights',
        description: 'Turns the lights of a room on or off.',
        tags: ['lights', 'home'],
        examples: ['Turn on the kitchen lights', 'Switch everything off downstairs'],
        inputModes: ['text/plain'],
        outputModes: ['text/plain'],
        security: [{ apiKey: [] }],
      },
      {
        id: 'dim-lights',
        name: 'Dim lights',
        description: 'Sets the brightness of a room, from 0 to 100 percent.',
        tags: ['lights', 'brightness'],
      },
    ],
    supportsAuthenticatedExtendedCard: true,
    signatures: [
      { protected: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImtleS0xIn0', signature: 'c2lnbmF0dXJl', header: { kid: 'key-1' } },
    ],
  };
}

/** A complete A2A v1.0 card (ProtoJSON of lf.a2a.v1.AgentCard) for the same agent. */
function lightsCardV10(): Card {
  return {
    name: 'Lights Agent',
    description: 'Switches and dims the lights in every room of the house.',
    supportedInterfaces: [
      { url: 'https://lights.example.com/a2a/grpc', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: 'https://lights.example.com/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      {
        url: 'https://lights.example.com/a2a/rest',
        protocolBinding: 'HTTP+JSON',
        protocolVersion: '1.0',
        tenant: 'home-1',
      },
      { url: 'https://lights.example.com/a2a/v03', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Example Home', url: 'https://home.example.com' },
    version: '1.4.2',
    documentationUrl: 'https://docs.home.example.com/lights',
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
      extensions: [{ uri: 'https://home.example.com/extensions/rooms/v1', required: false }],
    },
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
      apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key', description: 'Per-home key' } },
      oauth: {
        oauth2SecurityScheme: {
          flows: {
            deviceCode: {
              deviceAuthorizationUrl: 'https://auth.home.example.com/device',
              tokenUrl: 'https://auth.home.example.com/token',
              scopes: { 'lights:write': 'Switch and dim lights' },
            },
          },
          oauth2MetadataUrl: 'https://auth.home.example.com/.well-known/oauth-authorization-server',
        },
      },
      oidc: {
        openIdConnectSecurityScheme: {
          openIdConnectUrl: 'https://auth.home.example.com/.well-known/openid-configuration',
        },
      },
      mtls: { mtlsSecurityScheme: {} },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: { oauth: { list: ['lights:write'] } } }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'switch-lights',
        name: 'Switch lights',
        description: 'Turns the lights of a room on or off.',
        tags: ['lights', 'home'],
        examples: ['Turn on the kitchen lights'],
        inputModes: ['text/plain'],
        outputModes: ['text/plain'],
        securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
      },
      {
        id: 'dim-lights',
        name: 'Dim lights',
        description: 'Sets the brightness of a room, from 0 to 100 percent.',
        tags: ['lights', 'brightness'],
      },
    ],
    signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2lnbmF0dXJl' }],
    iconUrl: 'https://lights.example.com/icon.png',
  };
}

/** What an SDK with a v0.3 compatibility layer serves: the v0.3 card with the v1.0 interfaces embedded. */
function lightsCardDual(): Card {
  const v03 = without(lightsCardV03(), 'signatures');
  return {
    ...v03,
    protocolVersion: '0.3',
    supportedInterfaces: [
      { url: 'https://lights.example.com/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
      { url: 'https://lights.example.com/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
    ],
  };
}

function without(card: Card, field: string): Card {
  const copy = structuredClone(card);
  delete copy[field];
  return copy;
}

function errors(report: CardValidationReport): CardProblem[] {
  return report.problems.filter((problem) => problem.severity === 'error');
}

function warnings(report: CardValidationReport): CardProblem[] {
  return report.problems.filter((problem) => problem.severity === 'warning');
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

describe('validateAgentCard', () => {
  describe('valid cards', () => {
    it('passes a complete A2A v0.3 card', () => {
      expect(validateAgentCard(lightsCardV03(), { baseUrl: 'https://lights.example.com' })).toEqual({
        name: 'Lights Agent',
        url: 'https://lights.example.com/a2a/jsonrpc',
        protocol_version: '0.3.0',
        version_valid: true,
        has_skills: true,
        skill_count: 2,
        streaming: true,
        push_notifications: false,
        validation: 'passed',
        problems: [],
      });
    });

    it('passes a complete A2A v1.0 card, taking the first JSONRPC interface and the highest version', () => {
      expect(validateAgentCard(lightsCardV10(), { baseUrl: 'https://lights.example.com/' })).toEqual({
        name: 'Lights Agent',
        url: 'https://lights.example.com/a2a/jsonrpc',
        protocol_version: '1.0',
        version_valid: true,
        has_skills: true,
        skill_count: 2,
        streaming: true,
        push_notifications: true,
        validation: 'passed',
        problems: [],
      });
    });

    it('passes a dual card (v0.3 top level plus supportedInterfaces) and reports it as v0.3', () => {
      const report = validateAgentCard(lightsCardDual(), { baseUrl: 'https://lights.example.com' });
      expect(report.problems).toEqual([]);
      expect(report).toMatchObject({
        url: 'https://lights.example.com/a2a/jsonrpc',
        protocol_version: '0.3',
        version_valid: true,
        validation: 'passed',
      });
    });

    it('passes a v1.0 card serialized from a2a-js core types (empty lists and maps, empty tenant)', () => {
      const card = {
        name: 'Lights Agent',
        description: 'Switches the lights.',
        supportedInterfaces: [
          { url: 'http://localhost:4100/a2a/jsonrpc', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
        ],
        version: '0.1.0',
        capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
        securitySchemes: {},
        securityRequirements: [],
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [
          {
            id: 'switch-lights',
            name: 'Switch lights',
            description: 'On and off.',
            tags: ['lights'],
            examples: [],
            inputModes: [],
            outputModes: [],
            securityRequirements: [],
          },
        ],
        signatures: [],
      };
      expect(validateAgentCard(card)).toMatchObject({ validation: 'passed', problems: [], streaming: false });
    });

    it('passes a card with only the required v0.3 fields', () => {
      const card = {
        protocolVersion: '0.2.5',
        name: 'Lights Agent',
        description: 'Switches the lights.',
        url: 'http://lights.local:8080/',
        version: '1',
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'switch', name: 'Switch', description: 'On and off.', tags: [] }],
      };
      expect(validateAgentCard(card)).toMatchObject({ validation: 'passed', problems: [], protocol_version: '0.2.5' });
    });

    it('allows properties the spec does not define, on the card and inside it', () => {
      const card = lightsCardV10();
      card.vendorMetadata = { rack: 'b7' };
      card.skills[0].x_internal = true;
      card.supportedInterfaces[0].region = 'eu';
      expect(validateAgentCard(card).validation).toBe('passed');
    });

    it.each(['0.2.0', '0.2.6', '0.3', '0.3.0', '0.3.1'])('accepts protocolVersion %s on a v0.3 card', (version) => {
      const report = validateAgentCard({ ...lightsCardV03(), protocolVersion: version });
      expect(report).toMatchObject({ validation: 'passed', protocol_version: version, version_valid: true });
    });

    it.each(['1.0', '1.0.0'])('accepts protocolVersion %s on a v1.0 interface', (version) => {
      const card = lightsCardV10();
      card.supportedInterfaces = [
        { url: 'https://lights.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: version },
      ];
      expect(validateAgentCard(card)).toMatchObject({
        validation: 'passed',
        protocol_version: version,
        version_valid: true,
      });
    });

    it('does not modify the card', () => {
      const card = deepFreeze(lightsCardV03());
      expect(() => validateAgentCard(card)).not.toThrow();
      expect(card).toEqual(lightsCardV03());
    });
  });

  describe('text the hub cannot store', () => {
    it.each([
      ['name', { name: 'Lights\u0000Agent' }, 'name'],
      [
        'a skill description',
        { skills: [{ id: 's', name: 's', description: 'x\ud800', tags: ['t'] }] },
        'skills[0].description',
      ],
    ])('fails a card with a NUL or a lone surrogate in %s, naming it', (_what, change, path) => {
      const report = validateAgentCard({ ...lightsCardV03(), ...change }, { baseUrl: 'https://lights.example.com' });
      expect(report.validation).toBe('failed');
      expect(errors(report)).toContainEqual({
        severity: 'error',
        path,
        message: expect.stringContaining('cannot be stored'),
      });
    });
  });

  describe('required fields', () => {
    it.each([
      'protocolVersion',
      'name',
      'description',
      'url',
      'version',
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
    ])('reports a v0.3 card without %s', (field) => {
      const report = validateAgentCard(without(lightsCardV03(), field));
      expect(report.validation).toBe('failed');
      expect(errors(report)).toEqual([{ severity: 'error', path: field, message: `${field} is required` }]);
    });

    it.each([
      'name',
      'description',
      'supportedInterfaces',
      'version',
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
    ])('reports a v1.0 card without %s', (field) => {
      const card = without(lightsCardV10(), field);
      // Without supportedInterfaces a v1.0 card has no layout at all; the message says what is expected.
      const report = validateAgentCard(card);
      expect(report.validation).toBe('failed');
      if (field === 'supportedInterfaces') {
        expect(errors(report)).toEqual([
          {
            severity: 'error',
            path: '',
            message:
              'the card declares no endpoint: expected "url" and "protocolVersion" (A2A v0.3) or "supportedInterfaces" (A2A v1.0)',
          },
        ]);
      } else {
        expect(errors(report)).toEqual([{ severity: 'error', path: field, message: `${field} is required` }]);
      }
    });

    it.each(['id', 'name', 'description', 'tags'])('reports a skill without %s, naming the skill by index', (field) => {
      const card = lightsCardV03();
      delete card.skills[1][field];
      expect(errors(validateAgentCard(card))).toEqual([
        { severity: 'error', path: `skills[1].${field}`, message: `skills[1].${field} is required` },
      ]);
    });

    it('reports required fields of nested objects', () => {
      const card = lightsCardV03();
      delete card.provider.url;
      delete card.additionalInterfaces[1].transport;
      delete card.capabilities.extensions[0].uri;
      delete card.signatures[0].signature;
      delete card.securitySchemes.apiKey.name;
      delete card.securitySchemes.oidc.openIdConnectUrl;
      delete card.securitySchemes.oauth.flows.clientCredentials.tokenUrl;
      expect(errors(validateAgentCard(card)).map((problem) => problem.message)).toEqual(
        expect.arrayContaining([
          'provider.url is required',
          'additionalInterfaces[1].transport is required',
          'capabilities.extensions[0].uri is required',
          'signatures[0].signature is required',
          'securitySchemes.apiKey.name is required',
          'securitySchemes.oidc.openIdConnectUrl is required',
          'securitySchemes.oauth.flows.clientCredentials.tokenUrl is required',
        ]),
      );
      expect(errors(validateAgentCard(card))).toHaveLength(7);
    });

    it('reports required fields of v1.0 interfaces and security schemes', () => {
      const card = lightsCardV10();
      delete card.supportedInterfaces[2].protocolBinding;
      delete card.supportedInterfaces[3].protocolVersion;
      delete card.securitySchemes.apiKey.apiKeySecurityScheme.location;
      delete card.securitySchemes.oauth.oauth2SecurityScheme.flows.deviceCode.deviceAuthorizationUrl;
      expect(errors(validateAgentCard(card)).map((problem) => problem.message)).toEqual([
        'supportedInterfaces[2].protocolBinding is required',
        'supportedInterfaces[3].protocolVersion is required',
        'securitySchemes.apiKey.apiKeySecurityScheme.location is required',
        'securitySchemes.oauth.oauth2SecurityScheme.flows.deviceCode.deviceAuthorizationUrl is required',
      ]);
    });

    it('reports a v0.3 card without protocolVersion as having no valid version', () => {
      const report = validateAgentCard(without(lightsCardV03(), 'protocolVersion'));
      expect(report).toMatchObject({ protocol_version: null, version_valid: false, validation: 'failed' });
    });

    it('hints at camelCase when a field is present in snake_case', () => {
      const card = without(lightsCardV10(), 'defaultInputModes');
      card.default_input_modes = ['text/plain'];
      expect(errors(validateAgentCard(card))).toEqual([
        {
          severity: 'error',
          path: 'defaultInputModes',
          message: 'defaultInputModes is required (found "default_input_modes"; A2A JSON uses camelCase field names)',
        },
      ]);
    });

    it('reports an empty supportedInterfaces list', () => {
      const report = validateAgentCard({ ...lightsCardV10(), supportedInterfaces: [] });
      expect(errors(report)).toEqual([
        { severity: 'error', path: 'supportedInterfaces', message: 'supportedInterfaces must not be empty' },
      ]);
      expect(report).toMatchObject({ url: null, protocol_version: null, version_valid: false });
    });
  });

  describe('wrong types', () => {
    it.each([
      ['name', 42, 'name must be a string, got 42'],
      ['description', null, 'description must be a string, got null'],
      ['version', 1.2, 'version must be a string, got 1.2'],
      ['skills', { first: 'switch' }, 'skills must be an array, got an object'],
      ['capabilities', null, 'capabilities must be an object, got null'],
      ['defaultInputModes', 'text/plain', 'defaultInputModes must be an array, got "text/plain"'],
      ['supportsAuthenticatedExtendedCard', 'yes', 'supportsAuthenticatedExtendedCard must be a boolean, got "yes"'],
      ['securitySchemes', [], 'securitySchemes must be an object, got an array'],
      ['url', 8080, 'url must be a string, got 8080'],
    ])('reports %s of the wrong type', (field, value, message) => {
      const report = validateAgentCard({ ...lightsCardV03(), [field]: value });
      expect(errors(report)).toEqual([{ severity: 'error', path: field, message }]);
    });

    it('reports wrong types deep in the card with their paths', () => {
      const card = lightsCardV03();
      card.skills[0].id = 7;
      card.skills[1].tags = 'lights';
      card.capabilities.streaming = 'true';
      card.defaultOutputModes = ['text/plain', 3];
      card.security = [{ bearer: 'all' }];
      expect(errors(validateAgentCard(card))).toEqual([
        {
          severity: 'error',
          path: 'capabilities.streaming',
          message: 'capabilities.streaming must be a boolean, got "true"',
        },
        { severity: 'error', path: 'security[0].bearer', message: 'security[0].bearer must be an array, got "all"' },
        { severity: 'error', path: 'defaultOutputModes[1]', message: 'defaultOutputModes[1] must be a string, got 3' },
        { severity: 'error', path: 'skills[0].id', message: 'skills[0].id must be a string, got 7' },
        { severity: 'error', path: 'skills[1].tags', message: 'skills[1].tags must be an array, got "lights"' },
      ]);
    });

    it('reports v0.3 security schemes with a bad location or an unknown type', () => {
      const card = lightsCardV03();
      card.securitySchemes.apiKey.in = 'body';
      card.securitySchemes.basic = { type: 'basic' };
      card.securitySchemes['no-type'] = { scheme: 'Bearer' };
      expect(errors(validateAgentCard(card))).toEqual([
        {
          severity: 'error',
          path: 'securitySchemes.apiKey.in',
          message: 'securitySchemes.apiKey.in must be one of "query", "header", "cookie", got "body"',
        },
        {
          severity: 'error',
          path: 'securitySchemes.basic.type',
          message:
            'securitySchemes.basic.type must be one of "apiKey", "http", "oauth2", "openIdConnect", "mutualTLS", got "basic"',
        },
        {
          severity: 'error',
          path: 'securitySchemes["no-type"].type',
          message: 'securitySchemes["no-type"].type is required',
        },
      ]);
    });

    it('reports v1.0 security schemes that set no variant or more than one', () => {
      const card = lightsCardV10();
      card.securitySchemes.both = {
        apiKeySecurityScheme: { location: 'header', name: 'X-Key' },
        mtlsSecurityScheme: {},
      };
      card.securitySchemes.legacy = { type: 'http', scheme: 'Bearer' };
      card.securitySchemes.oauth.oauth2SecurityScheme.flows = {};
      expect(errors(validateAgentCard(card)).map((problem) => [problem.path, problem.message])).toEqual([
        [
          'securitySchemes.oauth.oauth2SecurityScheme.flows',
          'securitySchemes.oauth.oauth2SecurityScheme.flows must set one of authorizationCode, clientCredentials, implicit, password, deviceCode',
        ],
        [
          'securitySchemes.both',
          'securitySchemes.both must set exactly one of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme, but sets apiKeySecurityScheme and mtlsSecurityScheme',
        ],
        [
          'securitySchemes.legacy',
          'securitySchemes.legacy must set one of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme (it has "type": "http", the A2A v0.3 form; v1.0 wraps the scheme, e.g. {"httpAuthSecurityScheme": {"scheme": "Bearer"}})',
        ],
      ]);
    });

    it('reports v1.0 security requirements that are not lists of scopes', () => {
      const card = lightsCardV10();
      card.securityRequirements = [{ schemes: { bearer: ['read'] } }];
      expect(errors(validateAgentCard(card))).toEqual([
        {
          severity: 'error',
          path: 'securityRequirements[0].schemes.bearer',
          message: 'securityRequirements[0].schemes.bearer must be an object, got an array',
        },
      ]);
    });

    it('checks the types of the supportedInterfaces a dual card embeds', () => {
      const card = lightsCardDual();
      card.supportedInterfaces[1].protocolVersion = 1;
      expect(errors(validateAgentCard(card))).toEqual([
        {
          severity: 'error',
          path: 'supportedInterfaces[1].protocolVersion',
          message: 'supportedInterfaces[1].protocolVersion must be a string, got 1',
        },
      ]);
    });

    it('caps the problem list of a card with thousands of broken entries', () => {
      const card = lightsCardV10();
      card.skills = Array.from({ length: 2000 }, () => ({ id: 1 }));
      const report = validateAgentCard(card);
      expect(report).toMatchObject({ validation: 'failed', skill_count: 2000 });
      expect(report.problems).toHaveLength(100);
      expect(report.problems[99]).toEqual({
        severity: 'error',
        path: '',
        message: '7901 more problems are not listed',
      });
    });
  });

  describe('endpoints', () => {
    it.each([
      ['/a2a', 'url must be an absolute http(s) URL, got "/a2a"'],
      ['lights.example.com/a2a', 'url must be an absolute http(s) URL, got "lights.example.com/a2a"'],
      ['ftp://lights.example.com/a2a', 'url must be an absolute http(s) URL, got "ftp://lights.example.com/a2a"'],
      ['', 'url must be an absolute http(s) URL, got ""'],
    ])('rejects a v0.3 url of %j', (url, message) => {
      const report = validateAgentCard({ ...lightsCardV03(), url });
      expect(errors(report)).toEqual([{ severity: 'error', path: 'url', message }]);
      expect(report.url).toBe(url);
    });

    it('accepts a host:port gRPC target as the url of a GRPC-preferred v0.3 card', () => {
      const card = { ...lightsCardV03(), preferredTransport: 'GRPC', url: 'lights.example.com:50051' };
      expect(validateAgentCard(card, { baseUrl: 'https://lights.example.com' }).validation).toBe('passed');
    });

    it('fails a v1.0 card none of whose interfaces can be called', () => {
      const card = lightsCardV10();
      card.supportedInterfaces = [
        { url: '/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'https://lights.example.com/a2a/ws', protocolBinding: 'WEBSOCKET', protocolVersion: '1.0' },
      ];
      const report = validateAgentCard(card);
      expect(report.validation).toBe('failed');
      expect(errors(report)).toEqual([
        {
          severity: 'error',
          path: 'supportedInterfaces[0].url',
          message: 'supportedInterfaces[0].url must be an absolute http(s) URL, got "/a2a/jsonrpc"',
        },
        {
          severity: 'error',
          path: 'supportedInterfaces[1].protocolBinding',
          message: 'supportedInterfaces[1].protocolBinding "WEBSOCKET" is not one of "JSONRPC", "GRPC", "HTTP+JSON"',
        },
      ]);
      expect(report.url).toBe('/a2a/jsonrpc');
    });

    it('warns about, but accepts, a v1.0 card with one bad interface among good ones', () => {
      const card = lightsCardV10();
      card.supportedInterfaces[2].url = 'a2a/rest';
      const report = validateAgentCard(card);
      expect(report.validation).toBe('warnings');
      expect(report.problems).toEqual([
        {
          severity: 'warning',
          path: 'supportedInterfaces[2].url',
          message:
            'supportedInterfaces[2].url must be an absolute http(s) URL, got "a2a/rest"; this interface will be ignored',
        },
      ]);
    });

    it('accepts a v1.0 card whose only interface is a gRPC host:port target', () => {
      const card = lightsCardV10();
      card.supportedInterfaces = [{ url: 'lights.example.com:443', protocolBinding: 'GRPC', protocolVersion: '1.0' }];
      expect(validateAgentCard(card)).toMatchObject({ validation: 'passed', url: 'lights.example.com:443' });
    });

    it('rejects a blank gRPC target', () => {
      const card = lightsCardV10();
      card.supportedInterfaces = [{ url: ' ', protocolBinding: 'GRPC', protocolVersion: '1.0' }];
      expect(errors(validateAgentCard(card))).toEqual([
        {
          severity: 'error',
          path: 'supportedInterfaces[0].url',
          message:
            'supportedInterfaces[0].url must be a gRPC target such as "https://agent.example.com" or "agent.example.com:443", got " "',
        },
      ]);
    });

    it('uses the first interface as url when a v1.0 card has no JSONRPC interface', () => {
      const card = lightsCardV10();
      card.supportedInterfaces = card.supportedInterfaces.filter((item: Card) => item.protocolBinding !== 'JSONRPC');
      expect(validateAgentCard(card).url).toBe('https://lights.example.com/a2a/grpc');
    });

    it('only warns about bad additionalInterfaces of a v0.3 card', () => {
      const card = lightsCardV03();
      card.additionalInterfaces[1].url = '/a2a/rest';
      card.additionalInterfaces.push({ url: 'https://lights.example.com/soap', transport: 'SOAP' });
      const report = validateAgentCard(card);
      expect(report.validation).toBe('warnings');
      expect(report.problems.map((problem) => problem.message)).toEqual([
        'additionalInterfaces[1].url must be an absolute http(s) URL, got "/a2a/rest"; this interface will be ignored',
        'additionalInterfaces[3].transport "SOAP" is not one of "JSONRPC", "GRPC", "HTTP+JSON"; this interface will be ignored',
      ]);
    });

    it('only warns about bad supportedInterfaces of a dual card, whose endpoint is its v0.3 url', () => {
      const card = lightsCardDual();
      card.supportedInterfaces[1].url = '/a2a/v1';
      card.supportedInterfaces[1].protocolVersion = '2.0';
      const report = validateAgentCard(card);
      expect(report.validation).toBe('warnings');
      expect(report.problems.map((problem) => problem.message)).toEqual([
        'supportedInterfaces[1].url must be an absolute http(s) URL, got "/a2a/v1"; this interface will be ignored',
        'supportedInterfaces[1].protocolVersion "2.0" is not a known A2A protocol version (expected 0.2.x, 0.3.x or 1.0); this interface will be ignored',
      ]);
    });
  });

  describe('protocol versions', () => {
    it.each(['0.1.0', '0.4.0', '2.0', 'latest', ''])('fails a v0.3 card with protocolVersion %j', (version) => {
      const report = validateAgentCard({ ...lightsCardV03(), protocolVersion: version });
      expect(report).toMatchObject({ protocol_version: version, version_valid: false, validation: 'failed' });
      expect(errors(report)).toEqual([
        {
          severity: 'error',
          path: 'protocolVersion',
          message: `protocolVersion ${JSON.stringify(version)} is not a known A2A protocol version (expected 0.2.x, 0.3.x or 1.0)`,
        },
      ]);
    });

    it('fails a v1.0 card whose highest interface version is unknown', () => {
      const card = lightsCardV10();
      card.supportedInterfaces[0].protocolVersion = '2.0';
      const report = validateAgentCard(card);
      expect(report).toMatchObject({ protocol_version: '2.0', version_valid: false, validation: 'failed' });
      expect(errors(report)).toEqual([
        {
          severity: 'error',
          path: 'supportedInterfaces[0].protocolVersion',
          message:
            'supportedInterfaces[0].protocolVersion "2.0" is not a known A2A protocol version (expected 0.2.x, 0.3.x or 1.0)',
        },
      ]);
    });

    it('warns about an older unknown interface version when a known one is higher', () => {
      const card = lightsCardV10();
      card.supportedInterfaces[3].protocolVersion = '0.1';
      const report = validateAgentCard(card);
      expect(report).toMatchObject({ protocol_version: '1.0', version_valid: true, validation: 'warnings' });
      expect(report.problems).toEqual([
        {
          severity: 'warning',
          path: 'supportedInterfaces[3].protocolVersion',
          message:
            'supportedInterfaces[3].protocolVersion "0.1" is not a known A2A protocol version (expected 0.2.x, 0.3.x or 1.0); this interface will be ignored',
        },
      ]);
    });

    it('reports the highest version of a v1.0 card whose interfaces list 0.3 first', () => {
      const card = lightsCardV10();
      card.supportedInterfaces.reverse();
      expect(validateAgentCard(card)).toMatchObject({
        protocol_version: '1.0',
        url: 'https://lights.example.com/a2a/v03',
      });
    });

    it('warns when a v0.3-layout card claims protocol 1.0', () => {
      const report = validateAgentCard({ ...lightsCardV03(), protocolVersion: '1.0' });
      expect(report).toMatchObject({ version_valid: true, validation: 'warnings' });
      expect(report.problems).toEqual([
        {
          severity: 'warning',
          path: 'protocolVersion',
          message:
            'protocolVersion is "1.0" but the card uses the A2A v0.3 layout (top-level url); A2A 1.0 cards list their endpoints in supportedInterfaces',
        },
      ]);
    });
  });

  describe('cards of neither layout', () => {
    it('says what is missing and still checks the shared fields', () => {
      const card = without(without(lightsCardV03(), 'url'), 'protocolVersion');
      delete card.skills[0].tags;
      const report = validateAgentCard(card);
      expect(report).toMatchObject({ url: null, protocol_version: null, version_valid: false, validation: 'failed' });
      expect(errors(report)).toEqual([
        {
          severity: 'error',
          path: '',
          message:
            'the card declares no endpoint: expected "url" and "protocolVersion" (A2A v0.3) or "supportedInterfaces" (A2A v1.0)',
        },
        { severity: 'error', path: 'skills[0].tags', message: 'skills[0].tags is required' },
      ]);
    });

    it('points out snake_case field names', () => {
      const card = without(lightsCardV10(), 'supportedInterfaces');
      card.supported_interfaces = lightsCardV10().supportedInterfaces;
      expect(errors(validateAgentCard(card))[0].message).toBe(
        'the card declares no endpoint: expected "url" and "protocolVersion" (A2A v0.3) or "supportedInterfaces" (A2A v1.0) (found "supported_interfaces"; A2A JSON uses camelCase field names)',
      );
    });
  });

  describe('warnings', () => {
    it('warns about a card with no skills', () => {
      const report = validateAgentCard({ ...lightsCardV03(), skills: [] });
      expect(report).toMatchObject({ validation: 'warnings', has_skills: false, skill_count: 0 });
      expect(report.problems).toEqual([
        { severity: 'warning', path: 'skills', message: 'skills is empty; the agent advertises nothing it can do' },
      ]);
    });

    it('warns when the v0.3 url is on another host than the card was fetched from', () => {
      const report = validateAgentCard(
        { ...lightsCardV03(), url: 'http://localhost:4100/a2a', additionalInterfaces: [] },
        { baseUrl: 'https://lights.example.com' },
      );
      expect(report.validation).toBe('warnings');
      expect(report.problems).toEqual([
        {
          severity: 'warning',
          path: 'url',
          message:
            'url points at host "localhost", not "lights.example.com" where the card was fetched; check that the agent advertises its public address',
        },
      ]);
    });

    it('warns for each v1.0 interface on another host, including gRPC host:port targets', () => {
      const card = lightsCardV10();
      card.supportedInterfaces = [
        { url: 'https://lights.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'http://10.0.0.7:8080/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: 'lights-internal:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      ];
      const report = validateAgentCard(card, { baseUrl: 'https://Lights.Example.com:8443' });
      expect(report.problems.map((problem) => problem.path)).toEqual([
        'supportedInterfaces[1].url',
        'supportedInterfaces[2].url',
      ]);
      expect(report.problems[1].message).toBe(
        'supportedInterfaces[2].url points at host "lights-internal", not "lights.example.com" where the card was fetched; check that the agent advertises its public address',
      );
    });

    it('compares hosts only when a usable baseUrl is given', () => {
      const card = { ...lightsCardV03(), url: 'http://localhost:4100/a2a' };
      expect(validateAgentCard(card).validation).toBe('passed');
      expect(validateAgentCard(card, { baseUrl: 'not a url' }).validation).toBe('passed');
    });

    it('warns about a preferredTransport the spec does not define, and still checks the url', () => {
      const report = validateAgentCard({ ...lightsCardV03(), preferredTransport: 'WEBSOCKET' });
      expect(report.validation).toBe('warnings');
      expect(report.problems).toEqual([
        {
          severity: 'warning',
          path: 'preferredTransport',
          message: 'preferredTransport "WEBSOCKET" is not one of "JSONRPC", "GRPC", "HTTP+JSON"',
        },
      ]);
      const badUrl = validateAgentCard({ ...lightsCardV03(), preferredTransport: 'WEBSOCKET', url: 'ws:/a2a' });
      expect(errors(badUrl).map((problem) => problem.path)).toEqual(['url']);
    });

    it.each(['', '   '])('warns about a description of %j', (description) => {
      const report = validateAgentCard({ ...lightsCardV10(), description });
      expect(report.validation).toBe('warnings');
      expect(report.problems).toEqual([
        {
          severity: 'warning',
          path: 'description',
          message: 'description is empty; say in a few words what the agent is and does',
        },
      ]);
    });

    it('warns about empty default input and output modes', () => {
      const report = validateAgentCard({ ...lightsCardV03(), defaultInputModes: [], defaultOutputModes: [] });
      expect(report.validation).toBe('warnings');
      expect(report.problems).toEqual([
        {
          severity: 'warning',
          path: 'defaultInputModes',
          message: 'defaultInputModes is empty; list the media types the agent accepts, e.g. "text/plain"',
        },
        {
          severity: 'warning',
          path: 'defaultOutputModes',
          message: 'defaultOutputModes is empty; list the media types the agent returns, e.g. "text/plain"',
        },
      ]);
    });

    it('does not warn about skills without examples', () => {
      const card = lightsCardV10();
      card.skills.forEach((skill: Card) => delete skill.examples);
      expect(validateAgentCard(card)).toMatchObject({ validation: 'passed', problems: [] });
    });

    it('warns about repeated skill ids', () => {
      const card = lightsCardV03();
      card.skills[1].id = 'switch-lights';
      expect(validateAgentCard(card).problems).toEqual([
        {
          severity: 'warning',
          path: 'skills[1].id',
          message: 'skills[1].id "switch-lights" repeats skills[0].id; skill ids should be unique',
        },
      ]);
    });

    it('warns about security requirements naming undeclared schemes (v0.3 and v1.0)', () => {
      const v03 = lightsCardV03();
      v03.skills[0].security = [{ apiKey: [], cookie: [] }];
      expect(validateAgentCard(v03).problems).toEqual([
        {
          severity: 'warning',
          path: 'skills[0].security[0]',
          message: 'skills[0].security[0] requires security scheme "cookie", which securitySchemes does not declare',
        },
      ]);
      const v10 = lightsCardV10();
      delete v10.securitySchemes.oauth;
      expect(validateAgentCard(v10).problems).toEqual([
        {
          severity: 'warning',
          path: 'securityRequirements[1]',
          message: 'securityRequirements[1] requires security scheme "oauth", which securitySchemes does not declare',
        },
      ]);
    });

    it('lists errors before warnings', () => {
      const report = validateAgentCard({ ...without(lightsCardV03(), 'name'), skills: [] });
      expect(report.problems.map((problem) => problem.severity)).toEqual(['error', 'warning']);
      expect(report.validation).toBe('failed');
    });
  });

  describe('counters', () => {
    it.each([
      [{ streaming: true, pushNotifications: true }, true, true],
      [{ streaming: false, pushNotifications: true }, false, true],
      [{}, false, false],
      [{ streaming: 'true', pushNotifications: 1 }, false, false],
    ])('reads capabilities %j', (capabilities, streaming, pushNotifications) => {
      const report = validateAgentCard({ ...lightsCardV03(), capabilities });
      expect(report.streaming).toBe(streaming);
      expect(report.push_notifications).toBe(pushNotifications);
    });

    it('counts skills', () => {
      const card = lightsCardV10();
      card.skills.push({ id: 'scenes', name: 'Scenes', description: 'Recalls a lighting scene.', tags: ['scenes'] });
      expect(validateAgentCard(card)).toMatchObject({ has_skills: true, skill_count: 3 });
    });

    it('keeps the counters of a card that fails validation', () => {
      const report = validateAgentCard({ ...lightsCardV03(), url: '/a2a' });
      expect(report).toMatchObject({
        validation: 'failed',
        name: 'Lights Agent',
        skill_count: 2,
        streaming: true,
        push_notifications: false,
      });
    });

    it('reports name as null when it is not a string', () => {
      expect(validateAgentCard({ ...lightsCardV03(), name: ['Lights'] }).name).toBeNull();
    });
  });

  describe('inputs that are not JSON objects', () => {
    it.each([
      [null, 'null'],
      [[lightsCardV03()], 'an array'],
      ['{"name":"Lights Agent"}', '"{\\"name\\":\\"Lights Agent\\"}"'],
      [42, '42'],
      [undefined, 'nothing'],
    ])('rejects %j', (input, got) => {
      expect(validateAgentCard(input)).toEqual({
        name: null,
        url: null,
        protocol_version: null,
        version_valid: false,
        has_skills: false,
        skill_count: 0,
        streaming: false,
        push_notifications: false,
        validation: 'failed',
        problems: [{ severity: 'error', path: '', message: `the agent card must be a JSON object, got ${got}` }],
      });
    });
  });
});

describe('summarizeErrors', () => {
  it('joins the errors into one line and leaves out warnings', () => {
    const card = without(lightsCardV03(), 'name');
    card.skills[0].id = 7;
    card.description = '';
    const report = validateAgentCard(card);
    expect(warnings(report)).toHaveLength(1);
    expect(summarizeErrors(report)).toBe('name is required; skills[0].id must be a string, got 7');
  });

  it('returns an empty string when there are no errors', () => {
    expect(summarizeErrors(validateAgentCard({ ...lightsCardV03(), skills: [] }))).toBe('');
  });

  it('summarizes a long list of errors', () => {
    const report = validateAgentCard({});
    expect(errors(report)).toHaveLength(8);
    const many = validateAgentCard({ skills: Array.from({ length: 5 }, () => ({})) });
    const message = summarizeErrors(many);
    expect(message.split('; ')).toHaveLength(11);
    expect(message).toMatch(/; and \d+ more errors$/);
    expect(message).not.toContain('\n');
  });
});
