# The mcpverdict image, and the GitHub Action's (action.yml builds the last
# stage, runtime).
#
#   docker build -t mcpverdict .                        # runtime: mcpverdict, Node.js, Python
#   docker build --target judge -t mcpverdict:judge .   # judge only: validate recorded traces
#
# Every base image is a build argument whose default is pinned by digest (a
# digest and its tag are updated together), so GitHub builds exactly these
# and a machine without a registry can substitute bases of its own
# (scripts/test-image does).
ARG GO_IMAGE=golang:1.26-bookworm@sha256:6ef6e30f0ea5c384f6d111cf856e024e3086bbdcb1779da3f3b3fbba0aea53d2
ARG NODE_IMAGE=node:22-bookworm-slim@sha256:43ac6c60b8f89723f746e8a92ce91abd5017e627ce1ddfe4238355d3a30b772c
ARG RUNTIME_IMAGE=python:3.13-slim-bookworm@sha256:01f42367a0a94ad4bc17111776fd66e3500c1d87c15bbd6055b7371d39c124fb
ARG JUDGE_IMAGE=gcr.io/distroless/static-debian12:nonroot@sha256:afa5c872c891853ca7fcf1f12c3edb23f7eeef36189728842dd51042ff57f7ab

# build: a static binary, and the MCP JSON Schemas fetched from
# SCHEMA_BASE_URL (the specification repository at the pinned commit, or a
# mirror of it), each refused unless its SHA-256 is the pinned one.
FROM ${GO_IMAGE} AS build
ARG SCHEMA_BASE_URL=https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/b0f60ba5409db7a6582440a7b473cc0398890f15
WORKDIR /src
ENV CGO_ENABLED=0 GOTOOLCHAIN=local
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The context holds no .git, so the version and commit come as build
# arguments (the release passes them; `version` says "unknown" without).
ARG VERSION
ARG COMMIT
RUN go build -trimpath -o /out/mcpverdict \
      -ldflags="-s -w -X github.com/mcpverdict/mcpverdict/internal/cli.stampedVersion=${VERSION} -X github.com/mcpverdict/mcpverdict/internal/cli.stampedCommit=${COMMIT}" \
      ./cmd/mcpverdict \
 && /out/mcpverdict schema fetch --base-url "$SCHEMA_BASE_URL" --dir /out/schema

# node: only its runtime is taken, into the runtime stage.
FROM ${NODE_IMAGE} AS node

# judge: the slim image for judging recorded traces; no shell, no server
# runtime, the distroless non-root user. It is not the action, so it keeps
# a user of its own.
FROM ${JUDGE_IMAGE} AS judge
COPY --from=build /out/mcpverdict /usr/local/bin/mcpverdict
COPY --from=build /out/schema /usr/share/mcpverdict/schema
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/mcpverdict"]
CMD ["--help"]

# runtime: what the action runs. The servers people write must run inside
# it, so it carries Python (the base) and Node.js with npm and npx (from the
# node stage, the same Debian release). It runs as root, as GitHub requires
# of a docker action: the workspace belongs to whoever the runner is, so the
# entrypoint hands what it writes back to the workspace's owner and runs the
# server under test as that owner.
FROM ${RUNTIME_IMAGE} AS runtime
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version && python3 --version
COPY --from=build /out/mcpverdict /usr/local/bin/mcpverdict
COPY --from=build /out/schema /usr/share/mcpverdict/schema
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false PYTHONDONTWRITEBYTECODE=1
ENTRYPOINT ["/usr/local/bin/mcpverdict"]
CMD ["action"]
