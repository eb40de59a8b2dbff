//! `rookery user ...`: accounts from the command line, so that an admin or a script can set a
//! server up without a browser or e-mail. What it prints is for the operator: a reset link,
//! a new token.

use std::io::BufRead;

use crate::accounts::{Title, names, password};
use crate::cli::{Config, UserCommand};
use crate::store::Store;

pub(crate) async fn run(config: &Config, command: UserCommand) -> Result<(), String> {
    let store = Store::open(&config.database_url)
        .await
        .map_err(|e| e.to_string())?;
    let now = crate::wallclock::now_ms() as i64;
    let existing = |name: &str| {
        let store = store.clone();
        let name = name.to_owned();
        async move {
            store
                .user(&name)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("no account named {name:?}"))
        }
    };
    match command {
        UserCommand::Create { name, admin } => {
            let id = names::check(&name).map_err(|p| format!("{name:?}: {}", p.message()))?;
            let mut line = String::new();
            std::io::stdin()
                .lock()
                .read_line(&mut line)
                .map_err(|e| format!("cannot read the password from standard input: {e}"))?;
            let secret = line.trim_end_matches(['\n', '\r']);
            password::check_new(secret).map_err(|(_, message)| message.to_owned())?;
            let hash = crate::accounts::password::Passwords::default()
                .hash(secret)
                .await;
            if !store
                .create_user(&id, &name, &hash, admin, now)
                .await
                .map_err(|e| e.to_string())?
            {
                return Err(format!("the username {name:?} is taken"));
            }
            println!("created {name}{}", if admin { " (admin)" } else { "" });
        }
        UserCommand::ResetPassword { name } => {
            let user = existing(&name).await?;
            let token = crate::http::account::make_reset(&store, &user.id)
                .await
                .map_err(|e| e.to_string())?;
            let base = config
                .public_url
                .clone()
                .unwrap_or_else(|| format!("http://{}", config.listen));
            println!("{}/reset/{token}", base.trim_end_matches('/'));
            eprintln!("the link works once, for an hour");
        }
        UserCommand::Token {
            name,
            scopes,
            description,
        } => {
            let user = existing(&name).await?;
            let scopes = crate::accounts::parse_scopes(&scopes)?;
            let token = crate::http::account::make_token(&store, &user.id, &description, &scopes)
                .await
                .map_err(|e| e.problem.message)?;
            println!("{token}");
        }
        UserCommand::Title { name, title } => {
            let user = existing(&name).await?;
            let title = match title.as_str() {
                "none" | "" => None,
                text => Some(Title::grantable(text).ok_or_else(|| {
                    format!("no such title {text:?} (GM, IM, FM, WGM, WIM, NM, CM or none)")
                })?),
            };
            store
                .set_title(&user.id, title)
                .await
                .map_err(|e| e.to_string())?;
            println!("{}: {}", user.name, title.map_or("no title", Title::as_str));
        }
        UserCommand::Admin { name, remove } => {
            let user = existing(&name).await?;
            store
                .set_admin(&user.id, !remove)
                .await
                .map_err(|e| e.to_string())?;
            println!(
                "{}: {}",
                user.name,
                if remove { "not an admin" } else { "admin" }
            );
        }
        UserCommand::Close { name } => {
            let user = existing(&name).await?;
            store
                .set_closed(&user.id, Some(now))
                .await
                .map_err(|e| e.to_string())?;
            println!("{}: closed", user.name);
        }
        UserCommand::Reopen { name } => {
            let user = existing(&name).await?;
            store
                .set_closed(&user.id, None)
                .await
                .map_err(|e| e.to_string())?;
            println!("{}: open", user.name);
        }
    }
    Ok(())
}
