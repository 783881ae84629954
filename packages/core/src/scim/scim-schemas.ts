/**
 * The SCIM discovery documents (RFC 7643 §5–7, RFC 7644 §4): what this service provider supports,
 * its two resource types and the attributes of their schemas, limited to what Lectern keeps.
 */
export const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCIM_ENTERPRISE_USER = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const SCIM_LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCIM_SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
export const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const SERVICE_PROVIDER_CONFIG = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export const SCIM_MAX_RESULTS = 200;
export const SCIM_DEFAULT_COUNT = 100;

export function serviceProviderConfig(base: string) {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    // the published contract says no sort; lists still honour sortBy for a client that sends it
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'API token',
        description: "A Lectern API token with the scope 'scim:write', sent as 'Authorization: Bearer <token>'.",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  return [
    {
      schemas: [RESOURCE_TYPE],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A person using Lectern',
      schema: SCIM_USER,
      schemaExtensions: [{ schema: SCIM_ENTERPRISE_USER, required: false }],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: [RESOURCE_TYPE],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A group of users',
      schema: SCIM_GROUP,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
  ];
}

interface AttributeOptions {
  type?: 'string' | 'boolean' | 'dateTime' | 'reference' | 'complex';
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable';
  uniqueness?: 'none' | 'server';
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: ScimAttributeDefinition[];
}

interface ScimAttributeDefinition extends Omit<AttributeOptions, 'subAttributes'> {
  name: string;
  description: string;
  returned: string;
  subAttributes?: ScimAttributeDefinition[];
}

function attribute(name: string, description: string, options: AttributeOptions = {}): ScimAttributeDefinition {
  return {
    name,
    type: options.type ?? 'string',
    multiValued: options.multiValued ?? false,
    description,
    required: options.required ?? false,
    caseExact: options.caseExact ?? false,
    mutability: options.mutability ?? 'readWrite',
    returned: 'default',
    uniqueness: options.uniqueness ?? 'none',
    ...(options.canonicalValues ? { canonicalValues: options.canonicalValues } : {}),
    ...(options.referenceTypes ? { referenceTypes: options.referenceTypes } : {}),
    ...(options.subAttributes ? { subAttributes: options.subAttributes } : {}),
  };
}

const externalId = attribute('externalId', "The identity provider's own id, kept as sent", { caseExact: true });

export const schemas = (base: string) =>
  [
    {
      id: SCIM_USER,
      name: 'User',
      description: 'A Lectern user',
      attributes: [
        attribute('userName', 'The email address the user signs in with; unique', { required: true, uniqueness: 'server' }),
        externalId,
        attribute('name', "The user's name", {
          type: 'complex',
          subAttributes: [
            attribute('formatted', 'The full name'),
            attribute('givenName', 'Given name; makes up the full name when formatted is absent; read back as all but its last word'),
            attribute('familyName', 'Family name; makes up the full name when formatted is absent; read back as its last word'),
          ],
        }),
        attribute('displayName', 'The full name; sets it when name is absent'),
        attribute('emails', 'The email address, as the primary work email; other addresses are accepted and not kept', {
          type: 'complex',
          multiValued: true,
          subAttributes: [
            attribute('value', 'The address'),
            attribute('type', 'Always work', { canonicalValues: ['work'] }),
            attribute('primary', 'Always true', { type: 'boolean' }),
          ],
        }),
        attribute('active', 'false deactivates the user and ends its tokens and console sessions', { type: 'boolean' }),
        attribute('roles', "The user's Lectern role: the first value", {
          type: 'complex',
          multiValued: true,
          subAttributes: [
            attribute('value', 'admin, organizer or user', { canonicalValues: ['admin', 'organizer', 'user'] }),
            attribute('primary', 'Always true: the one role', { type: 'boolean', mutability: 'readOnly' }),
          ],
        }),
      ],
    },
    {
      id: SCIM_ENTERPRISE_USER,
      name: 'EnterpriseUser',
      description: 'The enterprise attributes Lectern keeps',
      attributes: [
        attribute('employeeNumber', "The user's employee id"),
        attribute('manager', "The user's manager", {
          type: 'complex',
          subAttributes: [
            attribute('value', "The manager's id", { caseExact: true }),
            attribute('$ref', "The manager's address; value wins when both are sent", { type: 'reference', referenceTypes: ['User'] }),
            attribute('displayName', "The manager's name", { mutability: 'readOnly' }),
          ],
        }),
      ],
    },
    {
      id: SCIM_GROUP,
      name: 'Group',
      description: 'A Lectern group',
      attributes: [
        attribute('displayName', "The group's name; unique", { required: true, uniqueness: 'server' }),
        externalId,
        attribute('members', "The group's members (users only)", {
          type: 'complex',
          multiValued: true,
          subAttributes: [
            attribute('value', "The member's id", { caseExact: true, mutability: 'immutable' }),
            attribute('$ref', "The member's address; value wins when both are sent", {
              type: 'reference',
              referenceTypes: ['User'],
              mutability: 'immutable',
            }),
            attribute('type', 'Always User', { canonicalValues: ['User'], mutability: 'immutable' }),
          ],
        }),
      ],
    },
  ].map((document) => ({ schemas: [SCHEMA], ...document, meta: { resourceType: 'Schema', location: `${base}/Schemas/${document.id}` } }));

/** A list answer (RFC 7644 §3.4.2). */
export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return { schemas: [SCIM_LIST_RESPONSE], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}
