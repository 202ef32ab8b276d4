/**
 * The native library's loader and JNI surface, and the process's capabilities. Not exported: the
 * public API is {@link org.gridstat.htb.Htb} and {@link org.gridstat.htb.netns}.
 */
package org.gridstat.htb.internal;
