import { useState } from 'preact/hooks';
import { AgentCard, AgentRecord, agentIdOf, deleteAgent, getAgent, listCards, refreshAgent } from '../api/agents';
import { hasScope } from '../screens';
import { Badge, ErrorText, Section, When } from '../ui/bits';
import { useLoad } from '../ui/load';
import { RegisterAgent } from './register-agent';

interface Row {
  card: AgentCard;
  id: string | null;
  record: AgentRecord | null;
}

async function loadAgents(): Promise<Row[]> {
  const cards = await listCards();
  return Promise.all(
    cards.map(async (card) => {
      const id = agentIdOf(card);
      const record = id ? await getAgent(id).catch(() => null) : null;
      return { card, id, record };
    }),
  );
}

export function AgentsScreen({ scopes }: { scopes: string[] }) {
  const agents = useLoad(loadAgents);
  const canWrite = hasScope(scopes, 'agents:write');
  return (
    <>
      {canWrite && <RegisterAgent onRegistered={agents.reload} />}
      <Section title="Hosted agents" id="hosted">
        <ErrorText error={agents.error} />
        {agents.loading && !agents.data && <p role="status">Loading agents…</p>}
        {agents.data && agents.data.length === 0 && <p>No agents.</p>}
        <ul class="agent-list">
          {agents.data?.map((row) => (
            <AgentItem key={row.id ?? row.card.url} row={row} canWrite={canWrite} onChanged={agents.reload} />
          ))}
        </ul>
      </Section>
    </>
  );
}

function transportsOf(card: AgentCard): { transport: string; url: string }[] {
  const main = { transport: card.preferredTransport ?? 'JSONRPC', url: card.url };
  const more = (card.additionalInterfaces ?? []).filter((i) => i.url !== main.url || i.transport !== main.transport);
  return [main, ...more];
}

function AgentItem({ row, canWrite, onChanged }: { row: Row; canWrite: boolean; onChanged: () => void }) {
  const { card, id, record } = row;
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const headingId = `agent-${id ?? card.name}`;

  const act = async (what: () => Promise<unknown>, done: string) => {
    setError(null);
    try {
      await what();
      setNote(done);
      onChanged();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <li class="agent" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {card.name} {id && <code>{id}</code>}
      </h3>
      {card.description && <p>{card.description}</p>}
      <dl class="facts">
        <dt>Status</dt>
        <dd>{record ? <Badge value={record.status} /> : 'unknown'}</dd>
        <dt>Last seen</dt>
        <dd>{record?.kind === 'local' ? 'hosted here' : <When at={record?.last_seen_at} />}</dd>
        <dt>Kind</dt>
        <dd>{record?.kind ?? '—'}</dd>
        <dt>Version</dt>
        <dd>
          {card.version ?? '—'} (A2A {card.protocolVersion ?? '?'})
        </dd>
        <dt>Streaming</dt>
        <dd>{card.capabilities?.streaming ? 'yes' : 'no'}</dd>
      </dl>
      <h4>Transports</h4>
      <ul class="plain">
        {transportsOf(card).map((t) => (
          <li key={`${t.transport} ${t.url}`}>
            <strong>{t.transport}</strong> <code>{t.url}</code>
          </li>
        ))}
      </ul>
      <h4>Skills</h4>
      {card.skills?.length ? (
        <ul class="skills">
          {card.skills.map((skill) => (
            <li key={skill.id}>
              <strong>{skill.name}</strong>
              {skill.description && <span> — {skill.description}</span>}
              {skill.tags?.length ? <span class="tags"> ({skill.tags.join(', ')})</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>No skills listed.</p>
      )}
      {id && (
        <p>
          <a href={`/api/agents/${encodeURIComponent(id)}/.well-known/agent-card.json`}>Agent card (JSON)</a>
        </p>
      )}
      {canWrite && id && record?.kind === 'remote' && (
        <div class="actions">
          <button type="button" onClick={() => void act(() => refreshAgent(id), `Refreshed ${card.name}.`)}>
            Refresh {card.name}
          </button>
          {confirming ? (
            <>
              <button type="button" class="danger" onClick={() => void act(() => deleteAgent(id), `Deleted ${id}.`)}>
                Confirm delete {card.name}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              Delete {card.name}
            </button>
          )}
        </div>
      )}
      {note && <p role="status">{note}</p>}
      <ErrorText error={error} />
    </li>
  );
}
