# REINFORCE as PyTorch's reinforcement-learning example writes it (Categorical over a policy's softmax,
# sample, log_prob, normalised returns), on a small made-up environment instead of gym; then actor-critic's losses
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(543)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 16)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(16, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)


policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = torch.finfo(torch.float32).eps


def select_action(state):
    state = state.unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode(gamma=0.99):
    R = 0
    policy_loss = []
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss


for i_episode in range(6):
    state = torch.randn(4)
    actions = []
    for t in range(8):
        action = select_action(state)
        actions.append(action)
        policy.rewards.append(1.0 if action == t % 2 else -0.5)
        state = torch.cat([state[1:], torch.tensor([action - 0.5])])
    loss = finish_episode()
    print(i_episode, actions, f"{loss.item():.4f}", loss.grad_fn.name())
print(policy.affine2.bias, policy.saved_log_probs)

# actor-critic: one Categorical over the actor's logits, a value, and the two losses
torch.manual_seed(0)
actor, critic = nn.Linear(3, 4), nn.Linear(3, 1)
states = torch.randn(5, 3)
m = Categorical(logits=actor(states))
actions = m.sample()
values = critic(states).squeeze(-1)
returns = torch.tensor([1.0, 0.5, 0.0, -0.5, 1.5])
advantage = returns - values
actor_loss = -(m.log_prob(actions) * advantage.detach()).mean()
critic_loss = F.smooth_l1_loss(values, returns)
entropy = m.entropy().mean()
(actor_loss + critic_loss - 0.01 * entropy).backward()
print(actions, m.log_prob(actions), entropy, m.probs[0])
print(actor.weight.grad, critic.bias.grad)
print(m, m.batch_shape, m.event_shape, m.param_shape, m.sample((2,)))
