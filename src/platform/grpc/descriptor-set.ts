import { fromBinary } from '@bufbuild/protobuf';
import {
  type DescriptorProto,
  type EnumDescriptorProto,
  type FieldDescriptorProto,
  FileDescriptorProtoSchema,
} from '@bufbuild/protobuf/wkt';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROTO_DIR } from '../../paths';

/**
 * The FileDescriptorSet `buf build` makes of proto/ (ours, the A2A specification protos the SDK
 * serves, health, reflection, google/api, google/rpc and the google/protobuf files they import),
 * checked in and kept current by scripts/proto-check.sh and test/grpc-reflection-image.spec.ts.
 */
export const DESCRIPTOR_SET_FILE = join(PROTO_DIR, 'descriptor-set.binpb');

/** The command that writes DESCRIPTOR_SET_FILE (run at the repository root). */
export const DESCRIPTOR_SET_BUILD = ['build', '--as-file-descriptor-set', '-o', 'proto/descriptor-set.binpb'];

/** One file of the set: its bytes exactly as buf wrote them, and what it declares. */
export interface DescriptorFile {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly dependencies: readonly string[];
  readonly services: readonly string[];
}

/** Reads a length-delimited varint at `offset`; returns the value and the offset after it. */
function varint(buffer: Uint8Array, offset: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (offset >= buffer.length) throw new Error('FileDescriptorSet: truncated varint');
    const byte = buffer[offset++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, offset];
    shift += 7;
  }
}

/** The raw `file` entries (field 1, length-delimited) of a serialized FileDescriptorSet. */
function rawFiles(set: Uint8Array): Uint8Array[] {
  const files: Uint8Array[] = [];
  let offset = 0;
  while (offset < set.length) {
    const [tag, afterTag] = varint(set, offset);
    if (tag !== 0x0a) throw new Error(`FileDescriptorSet: unexpected tag ${tag}`);
    const [length, start] = varint(set, afterTag);
    files.push(set.subarray(start, start + length));
    offset = start + length;
  }
  return files;
}

/**
 * An index of a FileDescriptorSet for server reflection: files by name, the file declaring each
 * fully qualified symbol, and extensions by extendee and number. Files are answered with their
 * original bytes (comments, options, map entries and proto3 optional as protoc/buf wrote them).
 */
export class DescriptorSet {
  private readonly files = new Map<string, DescriptorFile>();
  private readonly symbols = new Map<string, DescriptorFile>();
  private readonly extensions = new Map<string, Map<number, DescriptorFile>>();

  constructor(set: Uint8Array) {
    for (const bytes of rawFiles(set)) this.add(bytes);
  }

  static load(path = DESCRIPTOR_SET_FILE): DescriptorSet {
    return new DescriptorSet(readFileSync(path));
  }

  /** Every service the set declares, by full name. */
  services(): string[] {
    return [...this.files.values()].flatMap((file) => file.services);
  }

  byName(name: string): DescriptorFile | undefined {
    return this.files.get(name);
  }

  bySymbol(symbol: string): DescriptorFile | undefined {
    return this.symbols.get(symbol.replace(/^\./, ''));
  }

  byExtension(extendee: string, number: number): DescriptorFile | undefined {
    return this.extensions.get(extendee.replace(/^\./, ''))?.get(number);
  }

  extensionNumbers(extendee: string): number[] | undefined {
    const numbers = this.extensions.get(extendee.replace(/^\./, ''));
    return numbers && [...numbers.keys()].sort((a, b) => a - b);
  }

  /** The file and every file it imports, transitively, each once: what a reflection answer carries. */
  withDependencies(file: DescriptorFile): DescriptorFile[] {
    const out = new Map<string, DescriptorFile>();
    const visit = (current: DescriptorFile): void => {
      if (out.has(current.name)) return;
      out.set(current.name, current);
      for (const name of current.dependencies) {
        const dependency = this.files.get(name);
        if (dependency) visit(dependency);
      }
    };
    visit(file);
    return [...out.values()];
  }

  private add(bytes: Uint8Array): void {
    const decoded = fromBinary(FileDescriptorProtoSchema, bytes);
    const prefix = decoded.package ? `${decoded.package}.` : '';
    const services = decoded.service.map((service) => `${prefix}${service.name}`);
    const file: DescriptorFile = { name: decoded.name, bytes, dependencies: decoded.dependency, services };
    this.files.set(file.name, file);
    const index = (name: string): void => void this.symbols.set(name, file);
    if (decoded.package) index(decoded.package);
    for (const service of decoded.service) {
      index(`${prefix}${service.name}`);
      for (const method of service.method) index(`${prefix}${service.name}.${method.name}`);
    }
    for (const type of decoded.enumType) this.indexEnum(prefix, type, index);
    for (const type of decoded.messageType) this.indexMessage(prefix, type, file, index);
    this.indexExtensions(prefix, decoded.extension, file, index);
  }

  private indexMessage(
    prefix: string,
    message: DescriptorProto,
    file: DescriptorFile,
    index: (n: string) => void,
  ): void {
    const name = `${prefix}${message.name}`;
    index(name);
    for (const field of message.field) index(`${name}.${field.name}`);
    for (const oneof of message.oneofDecl) index(`${name}.${oneof.name}`);
    for (const type of message.enumType) this.indexEnum(`${name}.`, type, index);
    for (const type of message.nestedType) this.indexMessage(`${name}.`, type, file, index);
    this.indexExtensions(`${name}.`, message.extension, file, index);
  }

  private indexEnum(prefix: string, type: EnumDescriptorProto, index: (n: string) => void): void {
    index(`${prefix}${type.name}`);
    // Enum values are scoped as siblings of their enum (C++ scoping rules).
    for (const value of type.value) index(`${prefix}${value.name}`);
  }

  private indexExtensions(
    prefix: string,
    fields: FieldDescriptorProto[],
    file: DescriptorFile,
    index: (n: string) => void,
  ): void {
    for (const field of fields) {
      index(`${prefix}${field.name}`);
      const extendee = field.extendee.replace(/^\./, '');
      const numbers = this.extensions.get(extendee) ?? new Map<number, DescriptorFile>();
      numbers.set(field.number, file);
      this.extensions.set(extendee, numbers);
    }
  }
}
