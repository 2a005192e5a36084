import type { SchemaObject } from 'ajv';

/*
 * JSON Schemas for remote A2A agent cards, written from the A2A specification:
 *   - v0.3: specification/json/a2a.json at tag v0.3.0 (definitions AgentCard, AgentSkill, SecurityScheme, ...)
 *   - v1.0: specification/a2a.proto at tag v1.0.1 (message lf.a2a.v1.AgentCard), in its ProtoJSON (camelCase) form;
 *     fields marked (google.api.field_behavior) = REQUIRED are required here.
 * Additional properties are allowed everywhere: cards in the field carry extras, and the spec allows extensions.
 * `exactlyOneKeyOf` is a custom keyword (registered in card-schema.ts) for protobuf `oneof` groups.
 */

export const API_KEY_LOCATIONS = ['query', 'header', 'cookie'];

const str: SchemaObject = { type: 'string' };
const bool: SchemaObject = { type: 'boolean' };
const stringList: SchemaObject = { type: 'array', items: { type: 'string' } };
const stringMap: SchemaObject = { type: 'object', additionalProperties: { type: 'string' } };
const jsonObject: SchemaObject = { type: 'object' };

function object(required: string[], properties: Record<string, SchemaObject>): SchemaObject {
  return { type: 'object', required, properties };
}

function arrayOf(items: SchemaObject): SchemaObject {
  return { type: 'array', items };
}

function mapOf(values: SchemaObject): SchemaObject {
  return { type: 'object', additionalProperties: values };
}

// ---- shared by both versions ----

const provider = object(['organization', 'url'], { organization: str, url: str });

const signature = object(['protected', 'signature'], { protected: str, signature: str, header: jsonObject });

function extension(required: string[]): SchemaObject {
  return object(required, { uri: str, description: str, required: bool, params: jsonObject });
}

function skill(securityField: Record<string, SchemaObject>): SchemaObject {
  return object(['id', 'name', 'description', 'tags'], {
    id: str,
    name: str,
    description: str,
    tags: stringList,
    examples: stringList,
    inputModes: stringList,
    outputModes: stringList,
    ...securityField,
  });
}

// ---- A2A v1.0 (lf.a2a.v1) ----

const v10Interface = object(['url', 'protocolBinding', 'protocolVersion'], {
  url: str,
  protocolBinding: str,
  protocolVersion: str,
  tenant: str,
});

const v10SecurityRequirement = object([], { schemes: mapOf(object([], { list: stringList })) });

const v10Flows: SchemaObject = {
  ...object([], {
    authorizationCode: object(['authorizationUrl', 'tokenUrl', 'scopes'], {
      authorizationUrl: str,
      tokenUrl: str,
      refreshUrl: str,
      scopes: stringMap,
      pkceRequired: bool,
    }),
    clientCredentials: object(['tokenUrl', 'scopes'], { tokenUrl: str, refreshUrl: str, scopes: stringMap }),
    implicit: object([], { authorizationUrl: str, refreshUrl: str, scopes: stringMap }),
    password: object([], { tokenUrl: str, refreshUrl: str, scopes: stringMap }),
    deviceCode: object(['deviceAuthorizationUrl', 'tokenUrl', 'scopes'], {
      deviceAuthorizationUrl: str,
      tokenUrl: str,
      refreshUrl: str,
      scopes: stringMap,
    }),
  }),
  exactlyOneKeyOf: ['authorizationCode', 'clientCredentials', 'implicit', 'password', 'deviceCode'],
};

const v10SecurityScheme: SchemaObject = {
  ...object([], {
    apiKeySecurityScheme: object(['location', 'name'], {
      description: str,
      location: { enum: API_KEY_LOCATIONS },
      name: str,
    }),
    httpAuthSecurityScheme: object(['scheme'], { description: str, scheme: str, bearerFormat: str }),
    oauth2SecurityScheme: object(['flows'], { description: str, flows: v10Flows, oauth2MetadataUrl: str }),
    openIdConnectSecurityScheme: object(['openIdConnectUrl'], { description: str, openIdConnectUrl: str }),
    mtlsSecurityScheme: object([], { description: str }),
  }),
  exactlyOneKeyOf: [
    'apiKeySecurityScheme',
    'httpAuthSecurityScheme',
    'oauth2SecurityScheme',
    'openIdConnectSecurityScheme',
    'mtlsSecurityScheme',
  ],
};

/** Properties are listed in proto field order, which is the order problems are reported in. */
export const agentCardV10Schema: SchemaObject = {
  type: 'object',
  required: [
    'name',
    'description',
    'supportedInterfaces',
    'version',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
  ],
  properties: {
    name: str,
    description: str,
    supportedInterfaces: { type: 'array', minItems: 1, items: v10Interface },
    provider,
    version: str,
    documentationUrl: str,
    capabilities: object([], {
      streaming: bool,
      pushNotifications: bool,
      extensions: arrayOf(extension([])),
      extendedAgentCard: bool,
    }),
    securitySchemes: mapOf(v10SecurityScheme),
    securityRequirements: arrayOf(v10SecurityRequirement),
    defaultInputModes: stringList,
    defaultOutputModes: stringList,
    skills: arrayOf(skill({ securityRequirements: arrayOf(v10SecurityRequirement) })),
    signatures: arrayOf(signature),
    iconUrl: str,
  },
};

// ---- A2A v0.3 ----

const v03SecurityRequirement = mapOf(stringList);

const v03Flows = object([], {
  authorizationCode: object(['authorizationUrl', 'tokenUrl', 'scopes'], {
    authorizationUrl: str,
    tokenUrl: str,
    refreshUrl: str,
    scopes: stringMap,
  }),
  clientCredentials: object(['tokenUrl', 'scopes'], { tokenUrl: str, refreshUrl: str, scopes: stringMap }),
  implicit: object(['authorizationUrl', 'scopes'], { authorizationUrl: str, refreshUrl: str, scopes: stringMap }),
  password: object(['tokenUrl', 'scopes'], { tokenUrl: str, refreshUrl: str, scopes: stringMap }),
});

function v03Scheme(type: string, required: string[], properties: Record<string, SchemaObject>): SchemaObject {
  return object(['type', ...required], { type: { const: type }, description: str, ...properties });
}

/** A discriminated union on `type`, so only the matching variant's problems are reported. */
const v03SecurityScheme: SchemaObject = {
  type: 'object',
  required: ['type'],
  properties: { type: str },
  discriminator: { propertyName: 'type' },
  oneOf: [
    v03Scheme('apiKey', ['in', 'name'], { in: { enum: API_KEY_LOCATIONS }, name: str }),
    v03Scheme('http', ['scheme'], { scheme: str, bearerFormat: str }),
    v03Scheme('oauth2', ['flows'], { flows: v03Flows, oauth2MetadataUrl: str }),
    v03Scheme('openIdConnect', ['openIdConnectUrl'], { openIdConnectUrl: str }),
    v03Scheme('mutualTLS', [], {}),
  ],
};

/** Properties are listed in the order of the v0.3 spec's AgentCard, which is the order problems are reported in. */
export const agentCardV03Schema: SchemaObject = {
  type: 'object',
  required: [
    'protocolVersion',
    'name',
    'description',
    'url',
    'version',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
  ],
  properties: {
    protocolVersion: str,
    name: str,
    description: str,
    url: str,
    preferredTransport: str,
    additionalInterfaces: arrayOf(object(['url', 'transport'], { url: str, transport: str })),
    // Cards served by SDKs with a v0.3 compatibility layer embed the v1.0 interfaces too.
    supportedInterfaces: arrayOf(v10Interface),
    iconUrl: str,
    provider,
    version: str,
    documentationUrl: str,
    capabilities: object([], {
      streaming: bool,
      pushNotifications: bool,
      stateTransitionHistory: bool,
      extensions: arrayOf(extension(['uri'])),
    }),
    securitySchemes: mapOf(v03SecurityScheme),
    security: arrayOf(v03SecurityRequirement),
    defaultInputModes: stringList,
    defaultOutputModes: stringList,
    skills: arrayOf(skill({ security: arrayOf(v03SecurityRequirement) })),
    supportsAuthenticatedExtendedCard: bool,
    signatures: arrayOf(signature),
  },
};

/** For cards that match neither layout: the fields both versions share, so those problems are reported too. */
export const agentCardCommonSchema: SchemaObject = {
  type: 'object',
  required: ['name', 'description', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'],
  properties: {
    name: str,
    description: str,
    provider,
    version: str,
    documentationUrl: str,
    capabilities: object([], { streaming: bool, pushNotifications: bool }),
    defaultInputModes: stringList,
    defaultOutputModes: stringList,
    skills: arrayOf(skill({})),
    signatures: arrayOf(signature),
    iconUrl: str,
  },
};
