//! Who is online: accounts with a game socket open now (a player page says "online").

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Open sockets by account id (cheap to clone).
#[derive(Debug, Clone, Default)]
pub(crate) struct Online {
    open: Arc<Mutex<HashMap<String, usize>>>,
    /// Cluster mode: the accounts online on each other node, as it last said.
    others: crate::lobby::Others<Vec<String>>,
}

/// One open socket of an account; dropping it counts it out.
#[derive(Debug)]
pub(crate) struct Here {
    online: Online,
    id: String,
}

impl Online {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
        crate::locks::lock(&self.open)
    }

    /// Counts a socket of account `id` in, until the guard is dropped.
    pub(crate) fn enter(&self, id: &str) -> Here {
        *self.map().entry(id.to_owned()).or_insert(0) += 1;
        Here {
            online: self.clone(),
            id: id.to_owned(),
        }
    }

    pub(crate) fn is_online(&self, id: &str) -> bool {
        if self.map().contains_key(id) {
            return true;
        }
        self.others
            .find_map(|accounts| accounts.iter().any(|a| a == id).then_some(()))
            .is_some()
    }

    /// How many accounts are online on all nodes (each once, however many sockets).
    pub(crate) fn count(&self) -> usize {
        let mut all: std::collections::HashSet<String> = self.map().keys().cloned().collect();
        self.others
            .each(|accounts| all.extend(accounts.iter().cloned()));
        all.len()
    }

    /// The accounts online on this node (what it tells the other nodes).
    pub(crate) fn own(&self) -> Vec<String> {
        self.map().keys().cloned().collect()
    }

    /// The accounts online on node `node`, as it said just now.
    pub(crate) fn heard(&self, node: &str, accounts: Vec<String>) {
        self.others.heard(node, accounts);
    }
}

impl Drop for Here {
    fn drop(&mut self) {
        let mut open = self.online.map();
        if let Some(n) = open.get_mut(&self.id) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_account_is_online_while_a_socket_is_open() {
        let online = super::Online::default();
        assert!(!online.is_online("anna"));
        let a = online.enter("anna");
        let b = online.enter("anna");
        drop(a);
        assert!(online.is_online("anna"));
        drop(b);
        assert!(!online.is_online("anna"));
    }

    #[test]
    fn an_account_online_on_another_node_is_online_here() {
        let online = super::Online::default();
        online.heard("node2", vec!["bea".to_owned()]);
        assert!(online.is_online("bea") && !online.is_online("anna"));
        let _a = online.enter("anna");
        assert_eq!(online.own(), vec!["anna".to_owned()]);
        online.heard("node2", Vec::new());
        assert!(!online.is_online("bea"));
    }
}
