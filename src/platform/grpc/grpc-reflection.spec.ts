import { status } from '@grpc/grpc-js';
import { DescriptorSet } from './descriptor-set';
import { GrpcReflection } from './grpc-reflection';

describe('GrpcReflection (answers from the buf FileDescriptorSet)', () => {
  const set = DescriptorSet.load();
  const served = new Set(['', 'switchboard.v1.TaskService', 'grpc.health.v1.Health']);
  const reflection = new GrpcReflection(set, () => served);

  it('lists the served services, sorted, without the "" health entry', () => {
    expect(reflection.answer({ message_request: 'list_services', list_services: '*' })).toEqual({
      list_services_response: { service: [{ name: 'grpc.health.v1.Health' }, { name: 'switchboard.v1.TaskService' }] },
    });
  });

  it('answers a symbol with the original bytes of its file, then its imports', () => {
    const answer = reflection.answer({
      message_request: 'file_containing_symbol',
      file_containing_symbol: 'grpc.health.v1.Health',
    });
    const file = set.byName('grpc/health/v1/health.proto')!;
    expect(answer).toEqual({ file_descriptor_response: { file_descriptor_proto: [file.bytes] } });
  });

  it('answers a file by name and an extension by extendee and number', () => {
    const byName = reflection.answer({
      message_request: 'file_by_filename',
      file_by_filename: 'google/rpc/status.proto',
    });
    expect(byName).toEqual({
      file_descriptor_response: {
        file_descriptor_proto: set.withDependencies(set.byName('google/rpc/status.proto')!).map((f) => f.bytes),
      },
    });
    const extension = reflection.answer({
      message_request: 'file_containing_extension',
      file_containing_extension: { containing_type: 'google.protobuf.FieldOptions', extension_number: 1052 },
    });
    expect(extension).toMatchObject({
      file_descriptor_response: {
        file_descriptor_proto: [set.byName('google/api/field_behavior.proto')!.bytes, expect.anything()],
      },
    });
    expect(
      reflection.answer({
        message_request: 'all_extension_numbers_of_type',
        all_extension_numbers_of_type: 'google.protobuf.MethodOptions',
      }),
    ).toEqual({
      all_extension_numbers_response: {
        base_type_name: 'google.protobuf.MethodOptions',
        extension_number: [1051, 72295728],
      },
    });
  });

  it('answers NOT_FOUND for unknown names and INVALID_ARGUMENT for an empty request', () => {
    const notFound = (request: object) => reflection.answer(request);
    for (const request of [
      { message_request: 'file_containing_symbol', file_containing_symbol: 'switchboard.v1.Nope' },
      { message_request: 'file_by_filename', file_by_filename: 'nope.proto' },
      {
        message_request: 'file_containing_extension',
        file_containing_extension: { containing_type: 'x.Y', extension_number: 5 },
      },
      { message_request: 'all_extension_numbers_of_type', all_extension_numbers_of_type: 'x.Y' },
    ]) {
      expect(notFound(request)).toEqual({
        error_response: { error_code: status.NOT_FOUND, error_message: expect.stringMatching(/^Not found: /) },
      });
    }
    expect(reflection.answer({})).toEqual({
      error_response: { error_code: status.INVALID_ARGUMENT, error_message: expect.any(String) },
    });
  });
});
