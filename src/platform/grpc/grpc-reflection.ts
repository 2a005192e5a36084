import { type Server, type ServerDuplexStream, status } from '@grpc/grpc-js';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { join } from 'node:path';
import { PROTO_DIR } from '../../paths';
import type { DescriptorFile, DescriptorSet } from './descriptor-set';

/** grpc.reflection.v1 and v1alpha have the same messages; fields as in the proto (keepCase). */
interface ReflectionRequest {
  host?: string;
  message_request?: string;
  file_by_filename?: string;
  file_containing_symbol?: string;
  file_containing_extension?: { containing_type?: string; extension_number?: number };
  all_extension_numbers_of_type?: string;
  list_services?: string;
}

type ReflectionAnswer =
  | { file_descriptor_response: { file_descriptor_proto: Uint8Array[] } }
  | { all_extension_numbers_response: { base_type_name: string; extension_number: number[] } }
  | { list_services_response: { service: { name: string }[] } }
  | { error_response: { error_code: number; error_message: string } };

class NotFound extends Error {}

const VERSIONS = ['v1', 'v1alpha'] as const;

/**
 * gRPC server reflection (v1 and v1alpha) answered from the checked-in FileDescriptorSet that
 * `buf build` makes, so grpcurl, `buf curl` and Evans get the real files: their names, comments,
 * options, `*Entry` map messages and proto3 `optional`. Lists the services the server actually
 * serves (each must be in the set; test/grpc-reflection.e2e-spec.ts checks it).
 */
export class GrpcReflection {
  constructor(
    private readonly set: DescriptorSet,
    private readonly servedServices: () => Iterable<string>,
  ) {}

  addToServer(server: Server): void {
    for (const version of VERSIONS) {
      const file = join(PROTO_DIR, `grpc/reflection/${version}/reflection.proto`);
      const definition = protoLoader.loadSync(file, {
        keepCase: true,
        oneofs: true,
        longs: Number,
        includeDirs: [PROTO_DIR],
      });
      const service = definition[`grpc.reflection.${version}.ServerReflection`] as grpc.ServiceDefinition;
      server.addService(service, {
        ServerReflectionInfo: (stream: ServerDuplexStream<ReflectionRequest, object>) => this.serve(stream),
      });
    }
  }

  private serve(stream: ServerDuplexStream<ReflectionRequest, object>): void {
    stream.on('data', (request: ReflectionRequest) => {
      let answer: ReflectionAnswer;
      try {
        answer = this.answer(request);
      } catch {
        // A request this service cannot read must not take the server down with it.
        answer = this.error(status.INTERNAL, 'The reflection request could not be answered');
      }
      stream.write({ valid_host: request.host ?? '', original_request: request, ...answer });
    });
    stream.on('end', () => stream.end());
    stream.on('error', () => undefined);
  }

  answer(request: ReflectionRequest): ReflectionAnswer {
    try {
      switch (request.message_request) {
        case 'list_services':
          return { list_services_response: { service: this.listed().map((name) => ({ name })) } };
        case 'file_by_filename':
          return this.files(this.set.byName(request.file_by_filename ?? ''), `file ${request.file_by_filename}`);
        case 'file_containing_symbol':
          return this.files(
            this.set.bySymbol(request.file_containing_symbol ?? ''),
            `symbol ${request.file_containing_symbol}`,
          );
        case 'file_containing_extension': {
          const { containing_type = '', extension_number = 0 } = request.file_containing_extension ?? {};
          const file = this.set.byExtension(containing_type, extension_number);
          return this.files(file, `extension ${extension_number} of ${containing_type}`);
        }
        case 'all_extension_numbers_of_type': {
          const type = request.all_extension_numbers_of_type ?? '';
          if (!this.set.bySymbol(type)) throw new NotFound(`type ${type}`);
          const numbers = this.set.extensionNumbers(type) ?? [];
          return { all_extension_numbers_response: { base_type_name: type, extension_number: numbers } };
        }
        default:
          return this.error(status.INVALID_ARGUMENT, 'A reflection request names no known message_request');
      }
    } catch (error) {
      if (error instanceof NotFound) return this.error(status.NOT_FOUND, `Not found: ${error.message}`);
      throw error;
    }
  }

  /** Served services, sorted; a served service missing from the set is a build mistake, not hidden. */
  private listed(): string[] {
    return [...new Set(this.servedServices())].filter((name) => name !== '').sort();
  }

  private files(file: DescriptorFile | undefined, what: string): ReflectionAnswer {
    if (!file) throw new NotFound(what);
    return { file_descriptor_response: { file_descriptor_proto: this.set.withDependencies(file).map((f) => f.bytes) } };
  }

  private error(code: status, message: string): ReflectionAnswer {
    return { error_response: { error_code: code, error_message: message } };
  }
}
