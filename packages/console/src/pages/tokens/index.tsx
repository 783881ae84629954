/** API tokens: create one with chosen scopes (its value shown once, with a copy button), list, revoke. */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { Scope } from '../../api/types.ts';
import { tokenOrderings } from '../../api/values.ts';
import { ActionButton, SecretOnce } from '../../components/action.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { CreateForm, ErrorsFor, Field, text } from '../../components/form.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useVersion } from '../../components/use-load.ts';
import { can, me } from '../../session/me.ts';

export function TokensPage() {
  const [version, refresh] = useVersion();
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  // a token can only be given scopes its owner's role grants; this token's own scopes are a safe offer
  const offered: Scope[] = me.value?.token?.scopes ?? [];
  return (
    <>
      <h1>API tokens</h1>
      {created ? <SecretOnce label={`Token "${created.name}" created.`} value={created.token} /> : null}
      {can('tokens:write') ? (
        <CreateForm
          noun="token"
          create={(data) => {
            const expires = text(data, 'expires_at');
            return unwrap(
              api.POST('/api/v2/api-tokens', {
                body: {
                  name: text(data, 'name'),
                  scopes: data.getAll('scopes').map(String) as Scope[],
                  ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
                },
              }),
            );
          }}
          onCreated={(made) => {
            setCreated({ name: made.name, token: made.token });
            refresh();
          }}
        >
          <Field name="name" label="Token name" required />
          <Field
            name="expires_at"
            label="Expires at"
            type="datetime-local"
            hint="Your local time; empty for a token that does not expire."
          />
          <fieldset>
            <legend>Scopes</legend>
            <div class="scopes">
              {offered.map((scope) => (
                <label key={scope} class="inline">
                  <input type="checkbox" name="scopes" value={scope} defaultChecked={scope.endsWith(':read')} /> {scope}
                </label>
              ))}
            </div>
            <ErrorsFor name="scopes" />
          </fieldset>
        </CreateForm>
      ) : null}
      <ListView
        path="/api/v2/api-tokens"
        empty="No API tokens yet. Create one above, or with `lectern tokens create` on the server."
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ordering: q.oneOf('ordering', tokenOrderings) } } })}
        caption="API tokens"
        version={version}
        rowKey={(token) => token.public_id}
        columns={[
          { header: 'Name', sort: 'name', cell: (token) => token.name },
          { header: 'Prefix', cell: (token) => <code>{token.token_prefix}</code> },
          { header: 'Owner', cell: (token) => token.user.email },
          { header: 'Scopes', cell: (token) => <span title={token.scopes.join(' ')}>{token.scopes.length} scopes</span> },
          { header: 'Created', sort: 'created', cell: (token) => <DateCell value={token.created} /> },
          { header: 'Last used', sort: 'last_used_at', cell: (token) => <DateCell value={token.last_used_at} /> },
          { header: 'Expires', sort: 'expires_at', cell: (token) => <DateCell value={token.expires_at} /> },
          {
            header: 'Actions',
            cell: (token) =>
              can('tokens:write') ? (
                <ActionButton
                  label="Revoke"
                  name={`Revoke ${token.name}`}
                  danger
                  confirm={`Revoke the token "${token.name}"? Anything using it stops working at once.${token.public_id === me.value?.token?.public_id ? ' It is the token this console is signed in with.' : ''}`}
                  run={() => unwrap(api.DELETE('/api/v2/api-tokens/{id}', { params: { path: { id: token.public_id } } }))}
                  done={refresh}
                />
              ) : null,
          },
        ]}
      />
    </>
  );
}
