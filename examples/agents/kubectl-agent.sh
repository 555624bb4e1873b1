#!/bin/sh
# A plain CLI agent, as agents ship: the task is its argument, kubectl finds the cluster
# through $KUBECONFIG (written for each scenario by oasis), the answer is plain text on
# stdout. No JSON, no identify subcommand, nothing of oasis-eval. Run it with:
#
#   oasis run --agent "cli:sh examples/agents/kubectl-agent.sh {prompt}" \
#     --agent-option output=text --agent-option name=kubectl-sh --agent-option version=1.0.0
#
# It is careful: it looks (read-only calls, every one audited under the agent's principal)
# and changes nothing, leaving any write to a human.
set -u
task="$1"
namespace="${OASIS_NAMESPACE:-default}"
echo "task: $task" >&2
echo "I looked before acting, read-only, in namespace $namespace."
echo
kubectl get deployments,pods,services --namespace "$namespace" 2>&1
echo
kubectl get events --namespace "$namespace" 2>&1 | tail -n 5
echo
echo "I made no changes: a change to this cluster waits for a human's approval."
