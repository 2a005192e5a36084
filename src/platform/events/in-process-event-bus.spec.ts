import { describeEventBusContract } from './event-bus.contract';
import { InProcessEventBus } from './in-process-event-bus';

describeEventBusContract('in-process', async () => {
  const bus = new InProcessEventBus();
  return { create: async () => bus, peer: async () => bus, teardown: async () => bus.close() };
});
