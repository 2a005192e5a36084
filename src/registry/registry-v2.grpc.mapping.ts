import { fromProtoEnum, toProtoEnum, toProtoStruct, toProtoTimestamp } from '../platform/grpc/grpc-wkt';
import { AGENT_AUTH_MODES } from './entities/agent.entity';
import type { CardValidationReport } from './card/card-validator';
import type { AgentRecordResponse, ExtendedAgentRecordResponse } from './dto/agent.response';

/**
 * switchboard.v2 messages (proto/switchboard/v2/registry.proto) from the registry's results, and
 * v2 requests to the DTOs the REST and v1 adapters validate: closed sets as enums, cards as
 * google.protobuf.Struct, times as google.protobuf.Timestamp.
 */
export function agentV2(record: AgentRecordResponse) {
  return {
    agent_id: record.agent_id,
    name: record.name,
    kind: toProtoEnum('AGENT_KIND', record.kind),
    base_url: record.base_url,
    status: toProtoEnum('AGENT_STATUS', record.status),
    card: toProtoStruct(record.card),
    auth_mode: toProtoEnum('AUTH_MODE', record.auth_mode),
    last_seen_time: toProtoTimestamp(record.last_seen_at),
    create_time: toProtoTimestamp(record.created_at),
  };
}

export function extendedAgentV2(record: ExtendedAgentRecordResponse) {
  return {
    agent: agentV2(record),
    auth_header: record.auth_header ?? '',
    has_secret: record.has_secret,
    card_url: record.card_url ?? '',
    last_check_error: record.last_check_error ?? '',
    update_time: toProtoTimestamp(record.updated_at),
  };
}

export function validationReportV2(report: CardValidationReport) {
  return {
    ...report,
    name: report.name ?? '',
    url: report.url ?? '',
    protocol_version: report.protocol_version ?? '',
    validation: toProtoEnum('VALIDATION_OUTCOME', report.validation),
    problems: report.problems.map((problem) => ({
      ...problem,
      severity: toProtoEnum('PROBLEM_SEVERITY', problem.severity),
    })),
  };
}

interface RegisterAgentV2 {
  base_url?: string;
  id?: string;
  auth?: { mode?: unknown; header?: string; secret?: string } | null;
}

/** A v2 RegisterAgentRequest as the body RegisterAgentDto validates (auth mode by name, default none). */
export function registerRequestFromV2(request: RegisterAgentV2) {
  const { auth, ...rest } = request;
  if (!auth) return rest;
  return {
    ...rest,
    auth: { ...auth, mode: fromProtoEnum('AUTH_MODE', AGENT_AUTH_MODES, auth.mode) ?? 'none' },
  };
}
