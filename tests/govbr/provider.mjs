// A real OpenID Connect provider (the npm package oidc-provider) standing in for gov.br's Login
// Único in the tests: authorization code with PKCE required, the CPF as `sub`, and gov.br-like
// `amr` and `acr` claims. Started by the `govbr_provider` fixture (tests/govbr/conftest.py):
//
//   node provider.mjs <port> <client_id> <client_secret> <redirect_uri>
//
// It listens on 127.0.0.1 only. Its sign-in page asks for a CPF (any CPF signs in: the provider
// is the test's gov.br) and grants the requested scopes at once; it prints "pronto" when ready.
import http from 'node:http';

import Provider from 'oidc-provider';

const [port, clientId, clientSecret, redirectUri] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;
// gov.br's trust levels as acr values; the sign-in page chooses one (prata unless told).
const LEVELS = ['bronze', 'prata', 'ouro'];
const acrOf = (level) => `https://acesso.gov.br/confiabilidades/${level}`;

const provider = new Provider(issuer, {
  clients: [{
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  }],
  pkce: { required: () => true },
  acrValues: LEVELS.map(acrOf),
  claims: { openid: ['sub', 'acr', 'amr'], email: ['email'], profile: ['name'] },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (ctx, interaction) => `/interacao/${interaction.uid}` },
  cookies: { keys: ['chave-de-teste-do-provedor'] },
  async findAccount(ctx, id) {
    return {
      accountId: id,
      async claims() {
        return { sub: id, name: `Pessoa ${id}`, email: `${id}@exemplo.gov.br` };
      },
    };
  },
});

function page(res, uid) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="pt-BR"><body><h1>gov.br (teste)</h1>
<form method="post" action="/interacao/${uid}/entrar">
<label>CPF <input name="cpf" autocomplete="off"></label>
<label>Nível <input name="nivel" value="prata"></label><button>Entrar</button></form></body></html>`);
}

async function finish(req, res, uid) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const form = new URLSearchParams(Buffer.concat(chunks).toString());
  const cpf = form.get('cpf') || '';
  const level = LEVELS.includes(form.get('nivel')) ? form.get('nivel') : 'prata';
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new Error('interação trocada');
  const grant = new provider.Grant({ accountId: cpf, clientId: details.params.client_id });
  grant.addOIDCScope(String(details.params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, {
    login: { accountId: cpf, acr: acrOf(level), amr: ['passwd'] },
    consent: { grantId },
  }, { mergeWithLastSubmission: false });
}

const callback = provider.callback();
http.createServer(async (req, res) => {
  const match = /^\/interacao\/([^/]+)(\/entrar)?$/.exec(new URL(req.url, issuer).pathname);
  if (!match) return callback(req, res);
  try {
    if (req.method === 'POST' && match[2]) return await finish(req, res, match[1]);
    return page(res, match[1]);
  } catch (error) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(String(error));
  }
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('pronto\n'));
