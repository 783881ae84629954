/**
 * The name each request and response schema has in the API's OpenAPI document
 * (`#/components/schemas/<id>`), given where the schema is declared: generated clients get `User`
 * and `UserCreate` rather than one inline shape per operation. A registry of its own rather than
 * zod's global one (`.meta({ id })`): zod writes the global registry's ids into every JSON Schema
 * it converts and pulls those schemas out as shared definitions, which the document does not want.
 */
import { z } from 'zod';

export const apiSchemaNames = z.registry<{ id: string }>();
