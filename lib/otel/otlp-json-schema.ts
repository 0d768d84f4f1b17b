import { z } from 'zod';

/**
 * The OTLP/JSON trace request (opentelemetry-proto `ExportTraceServiceRequest` in its JSON
 * encoding, as the OTLP specification defines it): ids as lowercase hex, 64-bit integers as
 * decimal strings or numbers, enums as integers. What an OTLP backend accepts; what the
 * export is checked against and what the import reads.
 */

const Uint64 = z.union([z.string().regex(/^\d+$/, 'a uint64 as decimal digits'), z.number().int().min(0)]);
const Int64 = z.union([z.string().regex(/^-?\d+$/, 'an int64 as decimal digits'), z.number().int()]);
const hex = (bytes: number) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`), `${bytes} bytes as lowercase hex`);

export type OtlpAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string | number }
  | { doubleValue: number }
  | { bytesValue: string }
  | { arrayValue: { values?: OtlpAnyValue[] } }
  | { kvlistValue: { values?: OtlpKeyValue[] } };
export interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}

export const OtlpAnyValueSchema: z.ZodType<OtlpAnyValue> = z.lazy(() =>
  z.union([
    z.object({ stringValue: z.string() }).strict(),
    z.object({ boolValue: z.boolean() }).strict(),
    z.object({ intValue: Int64 }).strict(),
    z.object({ doubleValue: z.number() }).strict(),
    z.object({ bytesValue: z.string() }).strict(),
    z.object({ arrayValue: z.object({ values: z.array(OtlpAnyValueSchema).optional() }).strict() }).strict(),
    z.object({ kvlistValue: z.object({ values: z.array(OtlpKeyValueSchema).optional() }).strict() }).strict(),
  ]),
);
export const OtlpKeyValueSchema: z.ZodType<OtlpKeyValue> = z.lazy(() =>
  z.object({ key: z.string(), value: OtlpAnyValueSchema.optional() }).strict(),
);

const Attributes = z.array(OtlpKeyValueSchema).optional();

export const OtlpSpanSchema = z
  .object({
    traceId: hex(16),
    spanId: hex(8),
    traceState: z.string().optional(),
    parentSpanId: z.union([hex(8), z.literal('')]).optional(),
    flags: z.number().int().min(0).optional(),
    name: z.string().min(1),
    /** SPAN_KIND_UNSPECIFIED 0 … CONSUMER 5. */
    kind: z.number().int().min(0).max(5),
    startTimeUnixNano: Uint64,
    endTimeUnixNano: Uint64,
    attributes: Attributes,
    droppedAttributesCount: z.number().int().min(0).optional(),
    events: z
      .array(
        z
          .object({
            timeUnixNano: Uint64,
            name: z.string(),
            attributes: Attributes,
            droppedAttributesCount: z.number().int().min(0).optional(),
          })
          .strict(),
      )
      .optional(),
    droppedEventsCount: z.number().int().min(0).optional(),
    links: z
      .array(
        z
          .object({
            traceId: hex(16),
            spanId: hex(8),
            traceState: z.string().optional(),
            attributes: Attributes,
            droppedAttributesCount: z.number().int().min(0).optional(),
            flags: z.number().int().optional(),
          })
          .strict(),
      )
      .optional(),
    droppedLinksCount: z.number().int().min(0).optional(),
    /** STATUS_CODE_UNSET 0, OK 1, ERROR 2. */
    status: z
      .object({ code: z.number().int().min(0).max(2).optional(), message: z.string().optional() })
      .strict()
      .optional(),
  })
  .strict();
export type OtlpSpan = z.infer<typeof OtlpSpanSchema>;

export const OtlpTraceRequestSchema = z
  .object({
    resourceSpans: z.array(
      z
        .object({
          resource: z
            .object({ attributes: Attributes, droppedAttributesCount: z.number().int().min(0).optional() })
            .strict()
            .optional(),
          scopeSpans: z.array(
            z
              .object({
                scope: z
                  .object({
                    name: z.string(),
                    version: z.string().optional(),
                    attributes: Attributes,
                    droppedAttributesCount: z.number().int().optional(),
                  })
                  .strict()
                  .optional(),
                spans: z.array(OtlpSpanSchema),
                schemaUrl: z.string().optional(),
              })
              .strict(),
          ),
          schemaUrl: z.string().optional(),
        })
        .strict(),
    ),
  })
  .strict();
export type OtlpTraceRequest = z.infer<typeof OtlpTraceRequestSchema>;

/** A span attribute's plain value (arrays as arrays), or undefined. */
export function attributeOf(span: Pick<OtlpSpan, 'attributes'>, key: string): unknown {
  const found = span.attributes?.find((a) => a.key === key)?.value;
  return found === undefined ? undefined : plain(found);
}

function plain(value: OtlpAnyValue): unknown {
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('bytesValue' in value) return value.bytesValue;
  if ('arrayValue' in value) return (value.arrayValue.values ?? []).map(plain);
  return Object.fromEntries(
    (value.kvlistValue.values ?? []).map((kv) => [kv.key, kv.value ? plain(kv.value) : undefined]),
  );
}
