import { ensureHostsInstalled } from "../src/pi-hosts.js";

export default function setup(): void {
  ensureHostsInstalled();
}
