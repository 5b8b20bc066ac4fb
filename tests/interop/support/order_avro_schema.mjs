// The order events of floe's generator (`floe produce --print-schema`) as an Avro record
// schema, as a service registering them with a Schema Registry would write it. Shared by the
// floe up Avro test and the Avro ingest bench.
export const ORDER_AVRO_SCHEMA = {
  type: 'record', name: 'OrderEvent', namespace: 'shop',
  fields: [
    { name: 'event_id', type: 'string' },
    { name: 'ts', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'type', type: 'string' },
    { name: 'order_id', type: 'long' },
    { name: 'customer_id', type: 'long' },
    { name: 'region', type: 'string' },
    { name: 'items', type: 'int' },
    { name: 'amount', type: 'double' },
    { name: 'currency', type: 'string' },
    { name: 'coupon', type: ['null', 'string'], default: null },
  ],
};
