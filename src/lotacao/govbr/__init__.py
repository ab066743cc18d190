"""Sign-in with gov.br Login Único over OpenID Connect (authorization code with PKCE),
linking accounts by CPF; off unless configured."""
