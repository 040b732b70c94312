// The system and CPU an executable or native addon is built for, read from its header as
// file(1) would: ELF's e_machine, Mach-O's cputype, PE's machine. Named as Node names them
// (process.platform-process.arch: "linux-x64", "darwin-arm64", "win32-x64").
import { closeSync, openSync, readSync } from "node:fs";

const ELF_MACHINES = { 62: "x64", 183: "arm64" };
const MACHO_CPUS = { 16777223: "x64", 16777228: "arm64" };
const PE_MACHINES = { 34404: "x64", 43620: "arm64" };

/** "<platform>-<arch>" of `file` (a path, or its first bytes), or what it is instead ("not an executable: …"). */
export function binaryTarget(file) {
  const bytes = Buffer.isBuffer(file) ? file : readHeader(file);
  if (bytes.subarray(0, 4).toString("latin1") === "\x7fELF") {
    // e_ident[EI_DATA] 1: little-endian; e_machine follows e_type at offset 18.
    const machine = bytes[5] === 1 ? bytes.readUInt16LE(18) : bytes.readUInt16BE(18);
    return `linux-${ELF_MACHINES[machine] ?? `ELF machine 0x${machine.toString(16)}`}`;
  }
  if (bytes.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = bytes.readUInt32LE(4);
    return `darwin-${MACHO_CPUS[cpu] ?? `Mach-O cputype 0x${cpu.toString(16)}`}`;
  }
  if (bytes.subarray(0, 2).toString("latin1") === "MZ") {
    const pe = bytes.readUInt32LE(0x3c);
    if (bytes.subarray(pe, pe + 4).toString("latin1") === "PE\0\0") {
      const machine = bytes.readUInt16LE(pe + 4);
      return `win32-${PE_MACHINES[machine] ?? `PE machine 0x${machine.toString(16)}`}`;
    }
  }
  return `not an executable: starts with ${bytes.subarray(0, 8).toString("hex")}`;
}

function readHeader(file) {
  const header = Buffer.alloc(4096);
  const fd = openSync(file, "r");
  const length = readSync(fd, header, 0, header.length, 0);
  closeSync(fd);
  return header.subarray(0, length);
}
