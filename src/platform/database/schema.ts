import { A2aTaskEntity } from '../../a2a/store/entities/a2a-task.entity';
import { CartLineEntity } from '../../commerce/entities/cart-line.entity';
import { ContactMessageEntity } from '../../commerce/entities/contact-message.entity';
import { OrderEntity } from '../../commerce/entities/order.entity';
import { ProductEntity } from '../../commerce/entities/product.entity';
import { ShopSessionEntity } from '../../commerce/entities/shop-session.entity';
import { PushConfigEntity } from '../../a2a/push/entities/push-config.entity';
import { PushDeliveryEntity } from '../../a2a/push/entities/push-delivery.entity';
import { PushSubscriptionEntity } from '../../a2a/push/entities/push-subscription.entity';
import { RoutingDecisionEntity } from '../../orchestration/routing-log/routing-decision.entity';
import { LearnedRouteEntity } from '../../orchestration/learning/learned-route.entity';
import { AgentEntity } from '../../registry/entities/agent.entity';
import { TaskExecutionEntity } from '../../task-host/entities/task-execution.entity';
import { TaskPushDeliveryEntity } from '../../task-host/entities/task-push-delivery.entity';
import { TaskEntity } from '../../task-host/entities/task.entity';
import { ApiKeyEntity } from '../auth/entities/api-key.entity';
import { CreateApiKeys1763800000000 } from './migrations/1763800000000-create-api-keys';
import { CreateA2aTables1763900000000 } from './migrations/1763900000000-create-a2a-tables';
import { CreateAgents1764000000000 } from './migrations/1764000000000-create-agents';
import { CreateRoutingDecisions1764100000000 } from './migrations/1764100000000-create-routing-decisions';
import { CreateTaskTrees1764200000000 } from './migrations/1764200000000-create-task-trees';
import { CreateCommerce1764300000000 } from './migrations/1764300000000-create-commerce';
import { CreatePushSubscriptions1764400000000 } from './migrations/1764400000000-create-push-subscriptions';
import { CreateLearnedRoutes1764600000000 } from './migrations/1764600000000-create-learned-routes';
import { RetentionIndexes1764700000000 } from './migrations/1764700000000-retention-indexes';
import { RoutingLogAnswers1764800000000 } from './migrations/1764800000000-routing-log-answers';

/**
 * Every entity and migration, listed explicitly so the app, the CLIs and ts-jest load exactly
 * the same set. A module that adds a table adds its entity and migration here.
 */
export const ENTITIES = [
  ApiKeyEntity,
  A2aTaskEntity,
  PushConfigEntity,
  PushDeliveryEntity,
  PushSubscriptionEntity,
  AgentEntity,
  RoutingDecisionEntity,
  LearnedRouteEntity,
  TaskEntity,
  TaskExecutionEntity,
  TaskPushDeliveryEntity,
  ProductEntity,
  ShopSessionEntity,
  CartLineEntity,
  OrderEntity,
  ContactMessageEntity,
];
export const MIGRATIONS = [
  CreateApiKeys1763800000000,
  CreateA2aTables1763900000000,
  CreateAgents1764000000000,
  CreateRoutingDecisions1764100000000,
  CreateTaskTrees1764200000000,
  CreateCommerce1764300000000,
  CreatePushSubscriptions1764400000000,
  CreateLearnedRoutes1764600000000,
  RetentionIndexes1764700000000,
  RoutingLogAnswers1764800000000,
];
