import type { ProtoStruct, ProtoValue } from './grpc-wkt';

/**
 * google.protobuf.Struct in protobuf wire format, written straight from the shape the v2 adapters
 * give proto-loader (grpc-wkt.ts: `{ fields: { key: { stringValue } } }`), into one buffer: the
 * sizes in a first walk, the bytes in a second. protobufjs spends several times the cost of
 * JSON.stringify on a Struct (fromObject builds a message per value, then each nested message is
 * forked, measured and copied); this writes the same bytes - fields in the same order, every
 * set oneof member written, as protobufjs does - at a fraction of that. A value of any other shape
 * makes it give up (undefined), and the caller uses protobufjs.
 *
 *   Struct    { map<string, Value> fields = 1; }       entry: { string key = 1; Value value = 2; }
 *   Value     { oneof kind { NullValue null_value = 1; double number_value = 2; string string_value = 3;
 *                            bool bool_value = 4; Struct struct_value = 5; ListValue list_value = 6; } }
 *   ListValue { repeated Value values = 1; }
 */
export function encodeStruct(struct: ProtoStruct): Buffer | undefined {
  const sizes: number[] = [];
  const size = structSize(struct, sizes);
  if (size < 0) return undefined;
  const out = new Output(Buffer.allocUnsafe(size), sizes);
  out.struct(struct);
  return out.buffer;
}

/** Length-delimited (wire type 2) field `number` holding `bytes`. */
export function lengthDelimited(number: number, bytes: Buffer): Buffer {
  const head = Buffer.allocUnsafe(varintSize((number << 3) | 2) + varintSize(bytes.length));
  const at = writeVarint(head, 0, (number << 3) | 2);
  writeVarint(head, at, bytes.length);
  return Buffer.concat([head, bytes]);
}

const NULL_VALUE = 'NULL_VALUE';

/** Up to this many characters, a string is measured and (if ASCII) copied in JavaScript: cheaper than a call into C++. */
const SHORT_STRING = 64;

/** UTF-8 length of `text` (lone surrogates count as the 3-byte U+FFFD that Buffer.write puts for them). */
function utf8Length(text: string): number {
  if (text.length > SHORT_STRING) return Buffer.byteLength(text, 'utf8');
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) length += 1;
    else if (c < 0x800) length += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 4;
      i++;
    } else length += 3;
  }
  return length;
}

function varintSize(value: number): number {
  let size = 1;
  for (let rest = value >>> 7; rest > 0; rest >>>= 7) size++;
  return size;
}

function writeVarint(buffer: Buffer, at: number, value: number): number {
  let rest = value >>> 0;
  while (rest > 0x7f) {
    buffer[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  buffer[at++] = rest;
  return at;
}

/** A one-byte tag, the length and the content: what a length-delimited field of `size` bytes takes. */
const delimited = (size: number) => 1 + varintSize(size) + size;

/**
 * The size of each nested message and the UTF-8 length of each string, in the order the writing
 * walk meets them, are pushed to `sizes` (a message's slot taken before its children's); -1 when a
 * value has an unexpected shape.
 */
function structSize(struct: ProtoStruct, sizes: number[]): number {
  if (struct === null || typeof struct !== 'object' || typeof struct.fields !== 'object' || struct.fields === null) {
    return -1;
  }
  const slot = sizes.push(0) - 1;
  let size = 0;
  for (const key of Object.keys(struct.fields)) {
    const entrySlot = sizes.push(0, 0) - 2;
    const keyLength = (sizes[entrySlot + 1] = utf8Length(key));
    const valueSize = valueSizeOf(struct.fields[key], sizes);
    if (valueSize < 0) return -1;
    const entry = delimited(keyLength) + delimited(valueSize);
    sizes[entrySlot] = entry;
    size += delimited(entry);
  }
  sizes[slot] = size;
  return size;
}

function valueSizeOf(value: ProtoValue, sizes: number[]): number {
  const slot = sizes.push(0) - 1;
  let size: number;
  if (value === null || typeof value !== 'object') return -1;
  if ('stringValue' in value && typeof value.stringValue === 'string') {
    size = delimited((sizes[sizes.push(0) - 1] = utf8Length(value.stringValue)));
  } else if ('numberValue' in value && typeof value.numberValue === 'number') size = 9;
  else if ('boolValue' in value && typeof value.boolValue === 'boolean') size = 2;
  else if ('nullValue' in value && value.nullValue === NULL_VALUE) size = 2;
  else if ('structValue' in value) {
    const inner = structSize(value.structValue, sizes);
    if (inner < 0) return -1;
    size = delimited(inner);
  } else if ('listValue' in value && Array.isArray(value.listValue?.values)) {
    const listSlot = sizes.push(0) - 1;
    let list = 0;
    for (const item of value.listValue.values) {
      const itemSize = valueSizeOf(item, sizes);
      if (itemSize < 0) return -1;
      list += delimited(itemSize);
    }
    sizes[listSlot] = list;
    size = delimited(list);
  } else return -1;
  if (Object.keys(value).length !== 1) return -1;
  sizes[slot] = size;
  return size;
}

/** The second walk: the same order as the first, each message's size read from `sizes`. */
class Output {
  private at = 0;
  private next = 0;

  constructor(
    readonly buffer: Buffer,
    private readonly sizes: number[],
  ) {}

  struct(struct: ProtoStruct): void {
    this.next++;
    for (const key of Object.keys(struct.fields)) {
      this.head(0x0a, this.sizes[this.next++]);
      this.string(0x0a, key, this.sizes[this.next++]);
      const valueSize = this.sizes[this.next];
      this.head(0x12, valueSize);
      this.value(struct.fields[key]);
    }
  }

  private value(value: ProtoValue): void {
    this.next++;
    const buffer = this.buffer;
    if ('stringValue' in value) this.string(0x1a, value.stringValue, this.sizes[this.next++]);
    else if ('numberValue' in value) {
      buffer[this.at++] = 0x11;
      this.at = buffer.writeDoubleLE(value.numberValue, this.at);
    } else if ('boolValue' in value) {
      buffer[this.at++] = 0x20;
      buffer[this.at++] = value.boolValue ? 1 : 0;
    } else if ('nullValue' in value) {
      buffer[this.at++] = 0x08;
      buffer[this.at++] = 0;
    } else if ('structValue' in value) {
      this.head(0x2a, this.sizes[this.next]);
      this.struct(value.structValue);
    } else {
      this.head(0x32, this.sizes[this.next++]);
      for (const item of value.listValue.values) {
        this.head(0x0a, this.sizes[this.next]);
        this.value(item);
      }
    }
  }

  private head(tag: number, size: number): void {
    this.buffer[this.at++] = tag;
    this.at = writeVarint(this.buffer, this.at, size);
  }

  /** `text` of `length` UTF-8 bytes: short ASCII copied here, anything else by Buffer.write. */
  private string(tag: number, text: string, length: number): void {
    this.head(tag, length);
    const buffer = this.buffer;
    if (length === text.length && length <= SHORT_STRING) {
      for (let i = 0; i < length; i++) buffer[this.at++] = text.charCodeAt(i);
    } else this.at += buffer.write(text, this.at, length, 'utf8');
  }
}
