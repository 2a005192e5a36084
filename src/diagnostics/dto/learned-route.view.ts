import type { LearnedRoute } from '../../orchestration/learning/learned-routes';

/** A learned route as GET /internal/orchestration/learned-routes lists it. */
export function toLearnedRouteView(route: LearnedRoute) {
  return {
    id: route.id,
    owner: route.owner,
    example: route.example,
    agent_id: route.agentId,
    created_at: route.createdAt.toISOString(),
  };
}
