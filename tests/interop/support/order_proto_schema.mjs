// The order events of floe's generator (`floe produce --print-schema`) as a Protobuf schema,
// twice: as the .proto text a service would register with a Schema Registry (what Confluent's
// Java serializer registers), and as the same file's descriptor built with @bufbuild/protobuf,
// which encodes the events. Used by the Protobuf ingest bench (bench/stream/publish_orders.mjs).
import { create, createFileRegistry, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, file_google_protobuf_timestamp } from '@bufbuild/protobuf/wkt';

export const ORDER_PROTO_TEXT = `syntax = "proto3";
package shop;

import "google/protobuf/timestamp.proto";

message OrderEvent {
  string event_id = 1;
  google.protobuf.Timestamp ts = 2;
  string type = 3;
  int64 order_id = 4;
  int64 customer_id = 5;
  string region = 6;
  int32 items = 7;
  double amount = 8;
  string currency = 9;
  optional string coupon = 10;
}
`;

const field = (name, number, type, extra = {}) => ({ name, number, type, label: 1, jsonName: name, ...extra });
const file = create(FileDescriptorProtoSchema, {
  name: 'shop/order_event.proto',
  package: 'shop',
  syntax: 'proto3',
  dependency: ['google/protobuf/timestamp.proto'],
  messageType: [{
    name: 'OrderEvent',
    field: [field('event_id', 1, 9), field('ts', 2, 11, { typeName: '.google.protobuf.Timestamp' }),
      field('type', 3, 9), field('order_id', 4, 3), field('customer_id', 5, 3), field('region', 6, 9),
      field('items', 7, 5), field('amount', 8, 1), field('currency', 9, 9),
      field('coupon', 10, 9, { oneofIndex: 0, proto3Optional: true })],
    oneofDecl: [{ name: '_coupon' }],
  }],
});

// The message descriptor of shop.OrderEvent.
export const ORDER_EVENT = createFileRegistry(file, (name) =>
  (name === 'google/protobuf/timestamp.proto' ? file_google_protobuf_timestamp : undefined)).getMessage('shop.OrderEvent');

// One generator event (as its JSON line parses: ts in epoch milliseconds, coupon null or absent)
// as the binary OrderEvent message.
export function encodeOrderEvent(event) {
  const message = create(ORDER_EVENT, {
    eventId: event.event_id,
    ts: { seconds: BigInt(Math.floor(event.ts / 1000)), nanos: (event.ts % 1000) * 1_000_000 },
    type: event.type,
    orderId: BigInt(event.order_id),
    customerId: BigInt(event.customer_id),
    region: event.region,
    items: event.items,
    amount: event.amount,
    currency: event.currency,
    ...(event.coupon == null ? {} : { coupon: event.coupon }),
  });
  return toBinary(ORDER_EVENT, message);
}
