// The standard library, as far as contracts need it: which top-level modules it has (so that an import
// the workspace cannot resolve is known to be a dependency, not the standard library), and the few
// module constants whose values are fixed on every platform.
import type { PyValue } from './pyvalue';

/** Top-level modules of `sys.stdlib_module_names` (CPython 3.10–3.14), plus typing_extensions, which the SDK treats like typing. */
const STDLIB = new Set(
  (
    '__future__ abc aifc annotationlib antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii ' +
    'bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys compileall compression ' +
    'concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes curses dataclasses datetime dbm decimal difflib dis ' +
    'distutils doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc ' +
    'genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html http idlelib imaplib imghdr imp importlib ' +
    'inspect io ipaddress itertools json keyword lib2to3 linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap ' +
    'modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse os ' +
    'ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd ' +
    'py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy sched secrets ' +
    'select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd sqlite3 sre_compile ' +
    'sre_constants sre_parse ssl stat statistics string stringprep struct subprocess sunau symtable sys sysconfig syslog tabnanny ' +
    'tarfile telnetlib tempfile termios textwrap this threading time timeit tkinter token tokenize tomllib trace traceback ' +
    'tracemalloc tty turtle turtledemo types typing typing_extensions unicodedata unittest urllib uu uuid venv warnings wave weakref ' +
    'webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo'
  ).split(' '),
);

/** Whether a module (dotted, absolute) belongs to the standard library. */
export function isStdlibModule(name: string): boolean {
  if (name.startsWith('.')) return false;
  return STDLIB.has(name.split('.')[0]);
}

const ascii = (from: number, to: number) => String.fromCharCode(...Array.from({ length: to - from + 1 }, (_, i) => from + i));
const LOWER = ascii(97, 122);
const UPPER = ascii(65, 90);
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const WHITESPACE = ' \t\n\r\x0b\x0c';

/** Module constants with one value everywhere (`math.pi` is the double Python prints as 3.141592653589793). */
const CONSTANTS: Record<string, PyValue> = {
  'math.pi': { t: 'float', v: Math.PI },
  'math.e': { t: 'float', v: Math.E },
  'math.tau': { t: 'float', v: 2 * Math.PI },
  'math.inf': { t: 'float', v: Infinity },
  'math.nan': { t: 'float', v: NaN },
  'cmath.pi': { t: 'float', v: Math.PI },
  'cmath.e': { t: 'float', v: Math.E },
  'cmath.inf': { t: 'float', v: Infinity },
  'string.ascii_lowercase': { t: 'str', v: LOWER },
  'string.ascii_uppercase': { t: 'str', v: UPPER },
  'string.ascii_letters': { t: 'str', v: LOWER + UPPER },
  'string.digits': { t: 'str', v: '0123456789' },
  'string.hexdigits': { t: 'str', v: '0123456789abcdefABCDEF' },
  'string.octdigits': { t: 'str', v: '01234567' },
  'string.punctuation': { t: 'str', v: PUNCTUATION },
  'string.whitespace': { t: 'str', v: WHITESPACE },
  'string.printable': { t: 'str', v: '0123456789' + LOWER + UPPER + PUNCTUATION + WHITESPACE },
};

/** The value of `module.name` when it is one of the fixed constants. */
export function stdlibConstant(module: string, name: string): PyValue | undefined {
  return CONSTANTS[`${module}.${name}`];
}

/** Builtin functions: as values they are objects of type `builtin_function_or_method`; their results are not evaluated. */
export const BUILTIN_FUNCTIONS = new Set(
  (
    'abs aiter all anext any ascii bin breakpoint callable chr compile delattr dir divmod eval exec format getattr globals hasattr ' +
    'hash hex id input isinstance issubclass iter len locals max min next oct open ord pow print repr round setattr sorted sum vars ' +
    'zip map filter reversed enumerate super __import__'
  ).split(' '),
);
