#!/usr/bin/env bash
# Regenerates the terminal captures of docs/wizard-and-transit.md (docs/captures/*.txt) by driving
# the built CLI in tmux and saving `tmux capture-pane` text. A documentation helper only: it needs
# tmux, which the tests do not (they use @lydell/node-pty). Run after `npm run build`:
#   scripts/capture-docs.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/docs/captures"
work="$(mktemp -d)"
session="shipper-docs-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$out" "$work/store/locations"
# Fixed clock: Monday 2026-11-23, 10:00 in Chicago (the week of Thanksgiving).
export SHIPPER_NOW=2026-11-23T16:00:00Z NO_COLOR=1
cat > "$work/store/locations/chicago-dock.json" <<'JSON'
{ "name": "chicago-dock", "address": { "name": "Acme Machine Co", "street1": "100 N State St", "street2": null, "city": "Chicago", "state": "IL", "postalCode": "60601", "countryCode": "US", "contactName": "Jo Smith", "phone": "312-555-0100" } }
JSON

start() { # start <width>: a clean shell where `shipper` is the built CLI on the temporary store
  tmux kill-session -t "$session" 2>/dev/null || true
  tmux new-session -d -s "$session" -x "$1" -y 200 -c "$work" "env PS1='$ ' bash --norc --noprofile -i"
  sleep 0.3
  tmux send-keys -t "$session" -l -- "shipper() { node '$root/bin/shipper.js' --store '$work/store' \"\$@\"; }; clear"
  tmux send-keys -t "$session" Enter; sleep 0.3
  tmux clear-history -t "$session"
}
run() { tmux send-keys -t "$session" -l -- "$1"; tmux send-keys -t "$session" Enter; }
screen() { tmux capture-pane -p -t "$session" -S - -E -; }
wait_for() { # wait_for <text>
  for _ in $(seq 1 100); do screen | grep -qF -- "$1" && return 0; sleep 0.1; done
  echo "capture-docs: timed out waiting for: $1" >&2; screen >&2; exit 1
}
keys() { tmux send-keys -t "$session" "$@"; sleep 0.15; }
answer() { # answer <prompt> <text>
  wait_for "$1"; tmux send-keys -t "$session" -l -- "$2"; sleep 0.15; tmux send-keys -t "$session" Enter; sleep 0.25
}
save() { screen | sed -e 's/[[:space:]]*$//' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$out/$1"; echo "wrote docs/captures/$1"; }

# The wizard: a two-line quote, booked with a saved location, BOL printed.
start 100
run 'shipper quote'
answer 'Pickup ZIP' '00000'
wait_for 'unknown ZIP 00000'
keys BSpace BSpace BSpace BSpace BSpace; keys -l -- '60601'; keys Enter
answer 'Delivery ZIP' '30301'
answer 'Pickup date' 'thursday'
wait_for 'carriers do not pick up'
save wizard-refused-date.txt
keys C-u; keys -l -- 'wednesday'; keys Enter
wait_for 'Accessorial services'; keys Down; keys Space; keys Enter
answer 'Line 1: pallets' '2'
answer 'total weight' '1200'
answer 'dimensions of one pallet' '48x40x48'
answer 'description' 'Machine parts'
answer 'NMFC' '161030'
answer 'packaging' 'crates'
answer 'loose pieces' '10'
answer 'Add another line' 'y'
answer 'Line 2: pallets' '1'
answer 'total weight' '300'
answer 'dimensions of one pallet' '40x48x60'
answer 'Line 2: description' 'Spare belts'
answer 'Line 2: NMFC' ''
answer 'Line 2: packaging' ''
answer 'Line 2: loose pieces' ''
answer 'Add another line? (y/N)' 'n'
answer 'Book this shipment' 'y'
answer 'Your reference' 'PO-4471'
wait_for 'chicago-dock: Acme'; keys Enter
answer 'Ship to: company name' 'Peach Supply Co'
answer 'Ship to: street' '1 Peachtree St NE'
answer 'Ship to: street line 2' ''
answer 'Ship to: city' ''
answer 'Ship to: state' ''
answer 'Ship to: contact name' 'Dana Lee'
answer 'Ship to: phone' ''
answer 'Save this address for next time? Location name (Enter to skip)' 'atlanta-store'
answer 'Print the Bill of Lading' ''
for _ in $(seq 1 50); do screen | grep -qE 'BOL template|Save the PDF as' && break; sleep 0.1; done
if screen | grep -q 'BOL template'; then keys Enter; fi
answer 'Save the PDF as' ''
sleep 1.5
save wizard.txt

# Transit tables.
start 120
run 'shipper transit --from 60601 --to 10001 --to 30301,94105 --to 99501'
wait_for 'Anchorage'; sleep 0.3
run 'shipper transit --from 60601 --to 10001 --to 94105 --pickup-date 2026-11-24 --days 4'
wait_for 'Crosses'; sleep 0.5
save transit.txt
